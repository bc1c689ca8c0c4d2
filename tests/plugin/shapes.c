/* api=: members of the kernel's structs the module reads, writes and
 * initializes (through an anonymous union too), the callbacks it stores
 * there, the aggregates it needs complete (a variable, a member of its
 * own struct), the global variables and typedef names it writes, and
 * each call with the types it passes and whether its value is used.
 * Types are written as GCC prints them, then as declarators ('@' for the
 * name); a module's own struct only behind a pointer.
 * include: <linux/ksunset-test.h> shapes.c 28
 * shape: typedef kernel_flags_t shapes.c 31 24 - "" ""
 * shape: complete struct kernel_dev shapes.c 32 27 - "" "@1"
 * shape: typedef kernel_flags_t shapes.c 37 24 my_probe "" ""
 * shape: read struct kernel_dev.tag shapes.c 37 31 my_probe "char[8]" "char *@"
 * shape: call kernel_dev_get shapes.c 38 18 my_probe "long int(struct kernel_dev *, kernel_flags_t)" "long int @|struct kernel_dev *@|unsigned int @"
 * shape: read struct kernel_dev.ro_flags shapes.c 38 41 my_probe "const kernel_flags_t" "const unsigned int @"
 * shape: write struct kernel_dev.flags shapes.c 40 20 my_probe "kernel_flags_t" "unsigned int @"
 * shape: call kernel_dev_put shapes.c 41 9 my_probe "void(const struct kernel_dev *)" "-|const struct kernel_dev *@"
 * shape: var kernel_root shapes.c 41 24 my_probe "struct kernel_dev" ""
 * shape: complete struct kernel_dev shapes.c 45 26 - "" "@1"
 * shape: complete struct kernel_ops shapes.c 46 32 - "" "@1"
 * shape: callback struct kernel_ops.probe shapes.c 47 18 - "int (*)(struct kernel_dev *)" "my_probe|int (*@)(struct kernel_dev *)"
 * shape: init struct kernel_ops.name shapes.c 48 9 - "const char *" "const char *@"
 * shape: write struct kernel_dev.ops shapes.c 53 18 my_init "const struct kernel_ops *" "const struct kernel_ops *@"
 * shape: call kernel_dev_get shapes.c 54 9 my_init "long int(struct kernel_dev *, kernel_flags_t)" "-|struct kernel_dev *@|unsigned int @"
 * shape: read struct kernel_dev.refs shapes.c 55 20 my_init "kernel_atomic_t" "kernel_atomic_t @"
 * shape: read kernel_atomic_t.counter shapes.c 55 25 my_init "int" "int @"
 */
/* ksunset-args: api */
#include <linux/ksunset-test.h>

struct my_priv {
	kernel_flags_t mode;
	struct kernel_dev dev;	/* by value: the kernel's struct must be complete */
};

static int my_probe(struct kernel_dev *dev)
{
	kernel_flags_t f = dev->tag[0];
	long r = kernel_dev_get(dev, dev->ro_flags);

	dev->flags = f;
	kernel_dev_put(&kernel_root);
	return (int)r;
}

static struct kernel_dev mine;
static const struct kernel_ops my_ops = {
	.probe = my_probe,
	.name = "mine",
};

int my_init(struct my_priv *priv)
{
	mine.ops = &my_ops;
	kernel_dev_get(&priv->dev, 0);
	return mine.refs.counter;
}
