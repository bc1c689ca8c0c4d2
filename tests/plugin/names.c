/* Symbols are matched by their assembler name; a symbol the module defines
 * is not an import, nor is a local static function that happens to have a
 * scheduled name. */
#include <linux/ksunset-test.h>

/* real_symbol is scheduled; the C name is not */
extern int nice_name(int) __asm__("real_symbol");
/* source_alias_name is scheduled, but this declaration imports other_symbol */
extern int source_alias_name(int) __asm__("other_symbol");

int module_defined_fn(int x)
{
	return x + 1;
}

static int my_local_helper(int x)
{
	return x * 2;
}

int defined_later(int);

int (*const early_ref)(int) = defined_later;

int use_names(int x)
{
	return nice_name(x) + source_alias_name(x) + module_defined_fn(x) +
	       my_local_helper(x) + defined_later(x);
}

int defined_later(int x)
{
	return x;
}

/*
 * expect: 27:16: warning: 'nice_name' (symbol 'real_symbol') is scheduled for removal on 2027-05-01 [-Wdeprecated-declarations]
 * record: real_symbol call names.c 27 16 use_names 2027-05-01
 */
