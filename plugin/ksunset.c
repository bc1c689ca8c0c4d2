/* ksunset.so: a GCC plugin that finds every use of a symbol scheduled for
 * removal (see ksunset.schedule(5)), warns where the module's authors wrote
 * it and records it in the object's .note.ksunset section.
 *
 * Arguments (ksunset-plugin(1)); an unknown one is an error:
 *   -fplugin-arg-ksunset-schedule=FILE[:FILE...]
 *        the schedules, e.g. -fplugin-arg-ksunset-schedule=ksunset.schedule:vendor.schedule
 *        (default: $KSUNSET_SCHEDULE; with neither, only sunset attributes count)
 *   -fplugin-arg-ksunset-strict
 *        every use is an error, e.g. gcc -fplugin=ksunset.so -fplugin-arg-ksunset-strict ...
 *   -fplugin-arg-ksunset-quiet
 *        record uses but print no warnings (strict errors are still printed),
 *        e.g. -fplugin-arg-ksunset-quiet
 *   -fplugin-arg-ksunset-api
 *        also record every function or function-like macro of the kernel's
 *        headers that the source calls, takes the address of or expands,
 *        imported or not, for ksunset check --target, e.g. -fplugin-arg-ksunset-api
 *   -fplugin-arg-ksunset-probe
 *        check --target's probe of another kernel: answer the probe source's
 *        #pragma ksunset probe questions and note the compiler's errors in
 *        SOURCE.probe (nothing else is done), e.g. -fplugin-arg-ksunset-probe
 *   -fplugin-arg-ksunset-kernel-dir=DIR[:DIR...]
 *        kernel source/build trees, added to those found from the include
 *        paths, e.g. -fplugin-arg-ksunset-kernel-dir=/usr/src/linux-headers-6.1.0-57-common
 */
/* lib/ first: GCC's options.h defines warn_unused_result as a macro */
#include "buf.h"
#include "schedule.h"
#include <ksunset/record.h>

#include "gcc-plugin.h"
#include "plugin-version.h"
#include "tree.h"
#include "diagnostic.h"
#include "c-family/c-pragma.h"
#include "cpplib.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"

int plugin_is_GPL_compatible;

static struct plugin_info ks_info = {
	"0.1.0",
	"ksunset: warn about and record uses of symbols scheduled for removal\n"
	"  -fplugin-arg-ksunset-schedule=FILE[:FILE...]\n"
	"  -fplugin-arg-ksunset-strict\n"
	"  -fplugin-arg-ksunset-quiet\n"
	"  -fplugin-arg-ksunset-api\n"
	"  -fplugin-arg-ksunset-probe\n"
	"  -fplugin-arg-ksunset-kernel-dir=DIR[:DIR...]\n",
};

struct ks_args {
	const char *schedule;
	const char *kernel_dirs;
	bool strict, quiet, api, probe;
};

/* Returns false after reporting every bad argument. */
static bool parse_args(const char *name, const struct plugin_name_args *info,
		       struct ks_args *a)
{
	bool ok = true;

	for (int i = 0; i < info->argc; i++) {
		const char *key = info->argv[i].key, *val = info->argv[i].value;
		bool flag = !strcmp(key, "strict") || !strcmp(key, "quiet") || !strcmp(key, "api") ||
			    !strcmp(key, "probe");
		bool valued = !strcmp(key, "schedule") || !strcmp(key, "kernel-dir");

		if (!flag && !valued) {
			error("%s: unknown argument %<-fplugin-arg-%s-%s%>", name, name, key);
			ok = false;
		} else if (flag && val) {
			error("%s: argument %qs takes no value", name, key);
			ok = false;
		} else if (valued && (!val || !*val)) {
			error("%s: argument %qs needs a value, e.g. %<-fplugin-arg-%s-%s=%s%>",
			      name, key, name, key, "FILE");
			ok = false;
		} else if (!strcmp(key, "strict")) {
			a->strict = true;
		} else if (!strcmp(key, "quiet")) {
			a->quiet = true;
		} else if (!strcmp(key, "api")) {
			a->api = true;
		} else if (!strcmp(key, "probe")) {
			a->probe = true;
		} else if (!strcmp(key, "schedule")) {
			a->schedule = val;
		} else {
			a->kernel_dirs = val;
		}
	}
	return ok;
}

/* Every schedule problem becomes one GCC error naming FILE:LINE. */
static bool load_schedule(struct ks_plugin *p, const char *paths)
{
	struct ks_diags d = { NULL, 0, 0, 0, 0 };
	int r = ks_schedule_load_list(&p->sched, paths, &d);

	for (size_t i = 0; i < d.n; i++) {
		const struct ks_diag *dg = &d.v[i];
		char *where = dg->line ? ks_strdupf("%s:%u", dg->file, dg->line)
				       : xstrdup(dg->file ? dg->file : "schedule");

		if (dg->sev == KS_ERROR)
			error("%s: %s: %s", p->name, where, dg->msg);
		else
			warning(0, "%s: %s: %s", p->name, where, dg->msg);
		free(where);
	}
	if (r && !d.nerrors)
		error("%s: cannot load schedule %qs: %s", p->name, paths, xstrerror(-r));
	ks_diags_free(&d);
	return r == 0;
}

static void start_unit(void *gcc_data, void *user_data)
{
	/* Lets <ksunset/sunset.h> expand __sunset() only when we are loaded. */
	if (parse_in)
		cpp_define(parse_in, "__KSUNSET__=1");
	ks_api_start_unit((struct ks_plugin *)user_data);
}

static void finish_decl(void *gcc_data, void *user_data)
{
	ks_uses_finish_decl((struct ks_plugin *)user_data, (tree)gcc_data);
}

static void finish_unit(void *gcc_data, void *user_data)
{
	struct ks_plugin *p = (struct ks_plugin *)user_data;

	ks_puses_finish(p);
	ks_note_write(p);
	ks_reach_free(p);
	ks_shape_free(p);
	ks_text_free(p);
}

static void register_attributes(void *gcc_data, void *user_data)
{
	ks_mark_register_attribute();
}

static bool setup(struct ks_plugin *p, const struct ks_args *a)
{
	const char *why = NULL;
	const char *sched = a->schedule ? a->schedule : getenv("KSUNSET_SCHEDULE");

	p->strict = a->strict;
	p->quiet = a->quiet;
	p->api = a->api;
	if (ks_today(NULL, &p->today, &why)) {
		error("%s: cannot tell the date of today: %s", p->name, why ? why : "?");
		return false;
	}
	if (sched && *sched && !load_schedule(p, sched))
		return false;
	if (!ks_where_init(p, a->kernel_dirs))
		return false;
	return true;
}

/* The --target= of a GCC configuration: plugins differ by target even when
 * the versions agree. */
static char *target_of(const char *conf)
{
	const char *t = conf ? strstr(conf, "--target=") : NULL;

	if (!t)
		return xstrdup("?");
	t += strlen("--target=");
	return xstrndup(t, strcspn(t, " "));
}

static void version_error(const char *name, const struct plugin_gcc_version *v)
{
	char *built = target_of(gcc_version.configuration_arguments);
	char *running = target_of(v->configuration_arguments);

	error("%s: this plugin was built for GCC %s (%s) for %s and cannot be loaded "
	      "into GCC %s (%s) for %s; rebuild it with %<make plugin PLUGIN_CC=%s%>",
	      name, gcc_version.basever, gcc_version.datestamp, built,
	      v->basever, v->datestamp, running, "...");
	free(built);
	free(running);
}

int plugin_init(struct plugin_name_args *info, struct plugin_gcc_version *version)
{
	const char *name = info->base_name;
	struct ks_args a = { NULL, NULL, false, false, false, false };
	struct ks_plugin *p;

	if (!plugin_default_version_check(version, &gcc_version)) {
		version_error(name, version);
		return 1;
	}
	register_callback(name, PLUGIN_INFO, NULL, &ks_info);
	if (!parse_args(name, info, &a))
		return 0;	/* the errors fail the compilation */
	p = XCNEW(struct ks_plugin);
	p->name = name;
	p->a = XCNEW(struct ks_api);
	if (a.probe) {	/* a probe of another kernel, nothing else */
		p->probe = true;
		ks_probe_register(p, name);
		return 0;
	}
	if (!setup(p, &a))
		return 0;
	register_callback(name, PLUGIN_ATTRIBUTES, register_attributes, p);
	register_callback(name, PLUGIN_START_UNIT, start_unit, p);
	register_callback(name, PLUGIN_FINISH_DECL, finish_decl, p);
	register_callback(name, PLUGIN_FINISH_UNIT, finish_unit, p);
	ks_uses_register(p, name);
	ks_accept_register(p, name);
	ks_api_register(p, name);
	return 0;
}
