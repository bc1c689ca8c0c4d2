/* api=: every function of the kernel's headers that the source calls or
 * takes the address of, and every macro of theirs it expands (with a
 * function-like one's parameters), recorded where the source writes the
 * name, scheduled or not, imported or not (kernel_inline() is compiled
 * into a call of kernel_plain). Also in a macro's argument and in a macro
 * of the module's own (where the module's code expands it). Not what the kernel's
 * macros and inlines call inside (kernel_macro in kernel_twice,
 * kernel_inline, kernel_plain), the module's own functions and macros,
 * nor a function a kernel macro pastes together in the module's file
 * (kernel_get_own; kernel_get_hdr, pasted in the kernel's header, is the
 * kernel's). The kernel's headers the file includes, as written.
 * include: <linux/ksunset-test.h> api.c 25
 * shape: object KERNEL_CONST api.c 29 39 helper "" ""
 * shape: macro kernel_macro api.c 31 31 use_macro "(x)" "-|int @"
 * shape: call kernel_inline api.c 35 16 use_calls "int(int)" "int @|int @"
 * shape: call kernel_plain api.c 35 42 use_calls "int(int)" "int @|int @"
 * shape: macro kernel_twice api.c 40 16 use_nested "(x)" "-|int @"
 * shape: macro kernel_macro api.c 40 41 use_nested "(x)" "-|int @"
 * shape: addr kernel_release api.c 43 30 - "void(void *)" ""
 * shape: call kernel_inline api.c 47 16 own_macro "int(int)" "int @|int @"
 * shape: macro KERNEL_FNS api.c 50 1 - "(name)" ""
 * shape: call kernel_get_hdr api.c 54 16 use_pasted "int(int)" "int @|int @"
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
