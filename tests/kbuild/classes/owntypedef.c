// SPDX-License-Identifier: GPL-2.0
/* Typedefs of the module's own for the kernel's types (openafs's
 * rx_atomic_t for atomic_t, afs_kgid_t for kgid_t): the probe sees only
 * the kernel's headers, so it names the kernel's type, not the module's
 * typedef, which is declared nowhere there.
 * forecast: compiles owntypedef.c:22
 * forecast: compiles owntypedef.c:23
 * forecast: compiles owntypedef.c:27
 * forecast: compiles owntypedef.c:28
 * forecast: compiles owntypedef.c:33
 * forecast: compiles owntypedef.c:34
 * forecast: outlook owntypedef.ko builds-and-loads
 */
#include <linux/atomic.h>
#include <linux/module.h>
#include <linux/uidgid.h>

typedef kgid_t owntypedef_gid_t;
typedef atomic_t owntypedef_atomic_t;

struct owntypedef_stats {
	owntypedef_atomic_t packets;
	owntypedef_atomic_t bytes;
};

static struct owntypedef_stats owntypedef_s;
static owntypedef_atomic_t owntypedef_count;
static owntypedef_gid_t owntypedef_root;

bool owntypedef_less(owntypedef_gid_t a, owntypedef_gid_t b);
bool owntypedef_less(owntypedef_gid_t a, owntypedef_gid_t b)
{
	return gid_lt(a, b) && gid_lt(a, owntypedef_root) &&
	       atomic_read(&owntypedef_s.packets) > atomic_read(&owntypedef_count);
}
EXPORT_SYMBOL_GPL(owntypedef_less);

MODULE_LICENSE("GPL");
