// SPDX-License-Identifier: GPL-2.0
/* As a/parse.c, with the use only when TWIN_B_USE is defined: a new use in
 * a file of the same name and a function of the same name. */
#include <linux/kernel.h>
#include <linux/moduleparam.h>

#include "../twin.h"

static int base_b = 16;
module_param(base_b, int, 0444);

static noinline int parse(const char *s, unsigned int base, unsigned long *v, int unused)
{
#ifdef TWIN_B_USE
	return kstrtoul(s, base, v);
#else
	*v = base;
	return s[0] == '4' ? 0 : -EINVAL;
#endif
}

int b_parse(void)
{
	unsigned long v;

	return parse("42", 10, &v, 1) ?: parse("43", 10, &v, 2) ?: parse("44", base_b, &v, 3);
}
