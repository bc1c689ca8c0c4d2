/* Builds only when KCFLAGS carries -DKS_USER_FLAG=1: ksunset make must
 * append its flags to the user's, not replace them. */
#include <linux/module.h>
#include <linux/timekeeping.h>
#if !defined(KS_USER_FLAG)
#error "the user's KCFLAGS were lost"
#endif
int kcflags_use(void)
{
	struct timespec64 ts = { 0 };

	return do_settimeofday64(&ts);
}
EXPORT_SYMBOL_GPL(kcflags_use);
MODULE_LICENSE("GPL");
