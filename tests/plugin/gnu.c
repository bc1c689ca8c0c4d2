/* GNU C: a nested function, a statement expression, computed goto, a
 * compound literal, _Generic; sizeof and __builtin_constant_p do not use. */
#include <linux/ksunset-test.h>
typedef int (*fp_t)(const struct timespec64 *);
static void cleanup_fn(int *p) { (void)p; }
int nested(int n)
{
	int inner(int k) { return do_settimeofday64((void *)&k) + k; }
	int vla[n + 1];
	__attribute__((cleanup(cleanup_fn))) int c = 0;
	static void *labels[] = { &&a, &&b };
	int x = ({ int y = (int)jiffies; y + 1; });
	vla[0] = inner(x);
	goto *labels[n & 1];
a:	return vla[0] + c;
b:	return ((fp_t[]){ do_settimeofday64 })[0](0);
}
int gen(int v) { return _Generic(v, int: do_settimeofday64)(0); }
_Static_assert(sizeof(jiffies) == 8, "x");
int cond(void) { return sizeof(do_settimeofday64(0)) + __builtin_constant_p(jiffies); }
__attribute__((alias("nested"))) int nested_alias(int);

int (*const weak_ref)(const struct timespec64 *) __attribute__((weak)) = do_settimeofday64;

/*
 * expect: 8:35: warning: 'do_settimeofday64' is scheduled for removal on 2027-09-01; use 'rtc_set_time' instead [-Wdeprecated-declarations]
 * expect: 8:35: note: No in-tree modular user.
 * expect: 12:33: warning: 'jiffies' will become GPL-only on 2027-01-01; only modules whose license is not GPL-compatible are concerned; get_jiffies_64() and jiffies_64 [-Wdeprecated-declarations]
 * expect: 16:27: warning: 'do_settimeofday64' is scheduled for removal on 2027-09-01; use 'rtc_set_time' instead [-Wdeprecated-declarations]
 * expect: 16:27: note: No in-tree modular user.
 * expect: 18:42: warning: 'do_settimeofday64' is scheduled for removal on 2027-09-01; use 'rtc_set_time' instead [-Wdeprecated-declarations]
 * expect: 18:42: note: No in-tree modular user.
 * expect: 23:74: warning: 'do_settimeofday64' is scheduled for removal on 2027-09-01; use 'rtc_set_time' instead [-Wdeprecated-declarations]
 * expect: 23:74: note: No in-tree modular user.
 * record: do_settimeofday64 call gnu.c 8 35 inner 2027-09-01
 * record: jiffies data gnu.c 12 33 nested 2027-01-01
 * record: do_settimeofday64 addr gnu.c 16 27 nested 2027-09-01
 * record: do_settimeofday64 call gnu.c 18 42 gen 2027-09-01
 * record: do_settimeofday64 addr gnu.c 23 74 - 2027-09-01
 */
