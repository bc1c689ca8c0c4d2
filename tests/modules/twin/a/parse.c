// SPDX-License-Identifier: GPL-2.0
/* A use of kstrtoull (inlined from kstrtoul) in a function that GCC clones
 * for its constant argument: the plugin sees it in parse.constprop. */
#include <linux/kernel.h>
#include <linux/moduleparam.h>

#include "../twin.h"

static int base_a = 16;
module_param(base_a, int, 0444);

static noinline int parse(const char *s, unsigned int base, unsigned long *v, int unused)
{
	return kstrtoul(s, base, v);
}

int a_parse(void)
{
	unsigned long v;

	return parse("42", 10, &v, 1) ?: parse("43", 10, &v, 2) ?: parse("44", base_a, &v, 3);
}
