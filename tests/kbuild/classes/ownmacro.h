/* SPDX-License-Identifier: GPL-2.0 */
/* The module's own names for the kernel's: an object-like alias and a
 * function-like macro. */
#include <linux/slab.h>
#include <linux/string.h>

#define OWNMACRO_ALLOC kzalloc
#define OWNMACRO_COPY(d, s, n) strlcpy((d), (s), (n))
