/* Expressions the C front end rewrites while parsing: statement
 * expressions (also from a macro), __builtin_choose_expr, _Generic and
 * typeof. What the front end drops is no use: the branch
 * __builtin_choose_expr or _Generic does not choose, typeof's and
 * sizeof's operands, and (ksunset-plugin(1)) an operand of && || ?: that
 * a constant condition leaves unevaluated. */
#include <linux/ksunset-test.h>

#define PARSE_OR(s, d) ({ unsigned long __v = simple_strtoul((s), NULL, 0); __v ? __v : (d); })

unsigned long stmt_expr(const char *s)
{
	unsigned long v = ({ unsigned long t = simple_strtoul(s, NULL, 0); t + 1; });

	return v + PARSE_OR(s, 1);
}

unsigned long choose(const char *s)
{
	return __builtin_choose_expr(sizeof(long) == 8, simple_strtoul(s, NULL, 0), 0UL) +
	       __builtin_choose_expr(sizeof(long) == 3, simple_strtoul(s, NULL, 1), jiffies);
}

unsigned long generic(const char *s)
{
	return _Generic(s, const char *: simple_strtoul, default: 0)(s, NULL, 0) +
	       _Generic(s, char: simple_strtoul, default: jiffies);
}

unsigned long types(const char *s)
{
	typeof(simple_strtoul(s, NULL, 0)) v = 1;
	typeof(&simple_strtoul) fp = simple_strtoul;

	return v + fp(s, NULL, 0) + sizeof(jiffies);
}

unsigned long folded(const char *s)
{
	return (0 && simple_strtoul(s, NULL, 0)) + (1 ? 2 : simple_strtoul(s, NULL, 0));
}

/*
 * expect: 13:48: warning: 'simple_strtoul' is scheduled for removal on 2027-03-01; use 'kstrtoul' instead [-Wdeprecated-declarations]
 * expect: 15:20: warning: 'simple_strtoul' is scheduled for removal on 2027-03-01; use 'kstrtoul' instead [-Wdeprecated-declarations]
 * expect: 20:57: warning: 'simple_strtoul' is scheduled for removal on 2027-03-01; use 'kstrtoul' instead [-Wdeprecated-declarations]
 * expect: 21:85: warning: 'jiffies' will become GPL-only on 2027-01-01; only modules whose license is not GPL-compatible are concerned; get_jiffies_64() and jiffies_64 [-Wdeprecated-declarations]
 * expect: 26:42: warning: 'simple_strtoul' is scheduled for removal on 2027-03-01; use 'kstrtoul' instead [-Wdeprecated-declarations]
 * expect: 27:59: warning: 'jiffies' will become GPL-only on 2027-01-01; only modules whose license is not GPL-compatible are concerned; get_jiffies_64() and jiffies_64 [-Wdeprecated-declarations]
 * expect: 33:38: warning: 'simple_strtoul' is scheduled for removal on 2027-03-01; use 'kstrtoul' instead [-Wdeprecated-declarations]
 * record: simple_strtoul call exprs.c 13 48 stmt_expr 2027-03-01
 * record: simple_strtoul call exprs.c 15 20 stmt_expr 2027-03-01
 * record: simple_strtoul call exprs.c 20 57 choose 2027-03-01
 * record: jiffies data exprs.c 21 85 choose 2027-01-01
 * record: simple_strtoul call exprs.c 26 42 generic 2027-03-01
 * record: jiffies data exprs.c 27 59 generic 2027-01-01
 * record: simple_strtoul addr exprs.c 33 38 types 2027-03-01
 */
