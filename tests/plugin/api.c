/* api=: every function of the kernel's headers that the source calls or
 * takes the address of, and every function-like macro of theirs it
 * expands, recorded where the source writes the name, scheduled or not,
 * imported or not (kernel_inline() is compiled into a call of
 * kernel_plain). Also in a macro's argument and in a macro of the
 * module's own (where its body writes it). Not what the kernel's macros
 * and inlines call inside (kernel_macro in kernel_twice, kernel_inline,
 * kernel_plain), the module's own functions and macros, or an
 * object-like macro (KERNEL_CONST), nor a function a kernel macro pastes
 * together in the module's file (kernel_get_own; kernel_get_hdr, pasted
 * in the kernel's header, is the kernel's).
 * api: kernel_inline call api.c 25 16 own_macro
 * api: kernel_macro call api.c 29 31 use_macro
 * api: kernel_inline call api.c 33 16 use_calls
 * api: kernel_plain call api.c 33 42 use_calls
 * api: kernel_twice call api.c 38 16 use_nested
 * api: kernel_macro call api.c 38 41 use_nested
 * api: kernel_release addr api.c 41 30 -
 * api: KERNEL_FNS call api.c 48 1 -
 * api: kernel_get_hdr call api.c 52 16 use_pasted
 */
/* ksunset-args: api */
#include <linux/ksunset-test.h>

#define OWN(x) kernel_inline(x)

static int helper(int x) { return x + KERNEL_CONST; }

int use_macro(int x) { return kernel_macro(x); }

int use_calls(int x)
{
	return kernel_inline(x) + helper(kernel_plain(x));
}

int use_nested(int x)
{
	return kernel_twice(x) + helper(kernel_macro(x));
}

void (*release_fn)(void *) = kernel_release;

int own_macro(int x)
{
	return OWN(x);
}

KERNEL_FNS(own)

int use_pasted(int x)
{
	return kernel_get_hdr(x) + kernel_get_own(x);
}
