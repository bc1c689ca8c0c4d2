/* The phrases for a schedule entry: its deadline, its action, the days
 * left, the advice and the short tag. The plugin and the checker both
 * build their messages from these, and nothing else words an entry. */
#include "wording.h"

const char ks_license_unknown[] = "(unknown)";

void ks_say_when(struct ks_buf *b, const struct ks_when *w)
{
	ks_buf_addf(b, w->kind == KS_WHEN_DATE ? "on %s" : "in Linux %s", w->text);
}

void ks_say_action(struct ks_buf *b, const struct ks_entry *e, bool past)
{
	switch (e->action) {
	case KS_ACTION_GPL_ONLY:
		ks_buf_adds(b, past ? "was due to become GPL-only " : "will become GPL-only ");
		break;
	case KS_ACTION_NAMESPACE:
		ks_buf_addf(b, "%s to namespace %s ", past ? "was due to move" : "will move",
			    e->ns);
		break;
	default:
		ks_buf_adds(b, past ? "was due for removal " : "is scheduled for removal ");
	}
	ks_say_when(b, &e->when);
}

void ks_say_days(struct ks_buf *b, const struct ks_when_eval *ev)
{
	int n = ev->days_left < 0 ? -ev->days_left : ev->days_left;
	const char *s = n == 1 ? "" : "s";

	if (!ev->have_days)
		return;
	if (ev->days_left == 0)
		ks_buf_adds(b, " (today)");
	else if (ev->days_left > 0)
		ks_buf_addf(b, " (in %d day%s)", n, s);
	else
		ks_buf_addf(b, " (overdue by %d day%s)", n, s);
}

static void say_license(struct ks_buf *b, const char *license)
{
	if (license == ks_license_unknown)
		ks_buf_adds(b, "; only modules whose license is not GPL-compatible are concerned");
	else
		ks_buf_addf(b, "; module license '%s' is not GPL-compatible",
			    license ? license : "(none)");
}

void ks_say_advice(struct ks_buf *b, const struct ks_entry *e, const char *license)
{
	if (e->action == KS_ACTION_GPL_ONLY)
		say_license(b, license);
	else if (e->action == KS_ACTION_NAMESPACE)
		ks_buf_addf(b, "; add MODULE_IMPORT_NS(%s)", e->ns);
	ks_say_replace(b, e);
}

void ks_say_replace(struct ks_buf *b, const struct ks_entry *e)
{
	if (e->replace)
		ks_buf_addf(b, e->replace_ident ? "; use '%s' instead" : "; %s", e->replace);
}

void ks_say_tag(struct ks_buf *b, const struct ks_entry *e, bool past)
{
	const char *since = past ? "since" : "from";
	bool date = e->when.kind == KS_WHEN_DATE;

	switch (e->action) {
	case KS_ACTION_GPL_ONLY:
		ks_buf_addf(b, "GPL-only %s %s%s", since, date ? "" : "Linux ", e->when.text);
		return;
	case KS_ACTION_NAMESPACE:
		ks_buf_addf(b, "namespace %s %s %s%s", e->ns, since, date ? "" : "Linux ",
			    e->when.text);
		return;
	case KS_ACTION_UNEXPORT:
		break;
	}
	/* "removal on 2027-09-01", "removed in Linux 6.20" */
	ks_buf_adds(b, past ? "removed " : "removal ");
	ks_say_when(b, &e->when);
}
