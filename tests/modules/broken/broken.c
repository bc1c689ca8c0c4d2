/* Does not compile, on purpose. */
#include <linux/module.h>
int broken(void) { return undeclared_identifier; }
MODULE_LICENSE("GPL");
