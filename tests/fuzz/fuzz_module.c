/* libFuzzer target: a whole object checked from memory, as `ksunset check`
 * does for each module: decompression, libelf, the symbol table, .modinfo,
 * .note.ksunset records, the DWARF lines of every import, then the rules
 * against a fixed schedule and Module.symvers. */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules/rules.h"
#include "dwarf/dwarf.h"
#include "module/elfmod.h"
#include "module/modfile.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The schedule of the checker's tests (tests/data/check.schedule), so
 * seeds built from tests/modules meet every rule. */
static const char schedule_text[] =
	"What: do_settimeofday64\nWhen: 2027-09-01\nReplace: no replacement\n\n"
	"What: simple_strtoul\nWhen: 2026-12-20\nReplace: kstrtoul\n\n"
	"What: noop_llseek\nWhen: 2026-06-01\n\n"
	"What: __register_chrdev\nWhen: v6.20\nAction: gpl-only\n\n"
	"What: rtc_time64_to_tm\nWhen: 2027-12-01\nAction: namespace RTC\n\n"
	"What: printk _printk\nWhen: 6.1\n";

static char symvers_text[] = "0x12345678\tdo_settimeofday64\tvmlinux\tEXPORT_SYMBOL\t\n"
			     "0x12345678\tsimple_strtoul\tvmlinux\tEXPORT_SYMBOL\t\n"
			     "0x12345678\t__register_chrdev\tvmlinux\tEXPORT_SYMBOL\t\n"
			     "0x12345678\trtc_time64_to_tm\tvmlinux\tEXPORT_SYMBOL_GPL\t\n"
			     "0x12345678\t_printk\tvmlinux\tEXPORT_SYMBOL\t\n";

static struct ks_schedule sched = KS_SCHEDULE_INIT;
static struct ks_symvers symvers;
static int32_t today;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct ks_diags d = { 0 };

	(void)argc, (void)argv;
	today = ks_date_from_civil(2026, 12, 3);
	if (ks_elf_init() < 0 ||
	    ks_schedule_parse(&sched, "fuzz.schedule", schedule_text, sizeof(schedule_text) - 1,
			      &d) < 0 ||
	    ks_symvers_parse(&symvers, "fuzz.symvers", symvers_text, sizeof(symvers_text) - 1,
			     &d) < 0)
		abort();
	ks_diags_free(&d);
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* DWARF lines of every import (no separate debug files): whatever the
 * DWARF holds, only uses of imports, each with a line. */
static void locate(struct ks_module *m, char *image, size_t size)
{
	const struct ks_locate_opts o = { .debug_dir = "/nonexistent" };
	struct ks_diags d = { 0 };
	char **syms = malloc((m->nundef ? m->nundef : 1) * sizeof(*syms));
	size_t before = m->uses.n;
	int r;

	assert(syms);
	if (m->nundef)
		memcpy(syms, m->undef, m->nundef * sizeof(*syms));
	qsort(syms, m->nundef, sizeof(*syms), cmp_names);
	r = ks_dwarf_locate_image(m, image, size, syms, m->nundef, &o, &d);
	assert(r == 0 || r == -ENOENT || r == -ENOMEM);
	for (size_t i = before; i < m->uses.n; i++)
		assert(m->uses.v[i].line >= 1 && ks_module_imports(m, m->uses.v[i].symbol));
	free(syms);
	ks_diags_free(&d);
}

/* An unusable object is reported once, naming it; a usable one yields
 * findings for imported, scheduled symbols only. */
static void check(char *image, size_t size)
{
	struct ks_check c = { .sched = &sched, .symvers = &symvers,
			      .opts = { .today = today, .within = 30 } };
	struct ks_diags d = { 0 };
	struct ks_module m;
	int r = ks_module_parse(&m, "fuzz.ko", image, size, &d);

	assert(r == 0 || r == -EINVAL);
	assert(r != -EINVAL || d.n == 1);
	for (size_t i = 0; i < d.n; i++)
		assert(d.v[i].file && !strcmp(d.v[i].file, "fuzz.ko"));
	if (r == 0) {
		assert(m.name && (m.bad_records || d.n == 0));
		locate(&m, image, size);
		ks_check_module(&c, &m);
		for (size_t i = 0; i < c.found.n; i++)
			assert(ks_module_imports(&m, c.found.v[i].symbol) &&
			       ks_schedule_lookup(&sched, c.found.v[i].symbol));
		ks_module_free(&m);
	}
	ks_findings_free(&c.found);
	ks_diags_free(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *image = malloc(size ? size : 1);
	const char *why = NULL;

	if (!image)
		return 0;
	memcpy(image, data, size);
	/* xz, zstd and gzip images are decompressed first, as from a file */
	if (ks_modfile_decompress(&image, &size, &why) == 0)
		check(image, size);
	else
		assert(why && *why);
	free(image);
	return 0;
}
