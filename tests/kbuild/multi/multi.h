/* The module's own header: the use in it is reported here. */
#include <linux/kernel.h>

static inline unsigned long multi_parse(const char *s)
{
	return simple_strtoul(s, NULL, 0);
}

int multi_dev_init(const char *arg);
void multi_dev_exit(void);
