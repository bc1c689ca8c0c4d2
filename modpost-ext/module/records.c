/* The plugin as a location source: the records of .note.ksunset (format in
 * <ksunset/record.h>) become the module's uses. One note per translation
 * unit; a malformed record is reported once per module. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "path.h"
#include "module/section.h"

/* A use record's fields become a use in to; the record keeps nothing. The
 * function is the one the source writes, also for records of older
 * plugins that kept GCC's clone suffix. */
static void take_use(struct ks_uses *to, struct ks_record_use *rec)
{
	rec->function[ks_function_name_len(rec->function)] = '\0';
	struct ks_use u = { .symbol = rec->symbol, .kind = rec->kind, .file = rec->file,
			    .line = rec->line, .col = rec->col, .function = rec->function,
			    .source = KS_SOURCE_PLUGIN, .accept_reason = rec->accept_reason };

	ks_uses_add(to, &u);
	rec->symbol = rec->file = rec->function = rec->accept_reason = NULL;
}

/* A unit record starts the records of its translation unit. */
static void take_unit(struct ks_module *m, struct ks_record_unit *u)
{
	if (!m->nunits++)
		snprintf(m->digest, sizeof(m->digest), "%s", u->digest);
	else if (strcmp(m->digest, u->digest))
		m->mixed_digests = true;
	ks_units_begin(&m->units, u->source);
	u->source = NULL;
}

static void record_problem(struct ks_module *m, struct ks_diags *d, size_t idx, const char *why);

/* The records of api=: includes, shapes and guards of the unit they follow.
 * Version 3's api records, which version 4 replaced, are read as nothing;
 * a probe's records do not belong in a note. */
static void take_shape(struct ks_module *m, struct ks_record *rec, struct ks_diags *d, size_t idx)
{
	int r = 0;

	if (rec->type == KS_REC_INCLUDE) {
		r = ks_units_add_include(&m->units, &rec->include);
	} else if (rec->type == KS_REC_SHAPE) {
		r = ks_units_add_shape(&m->units, &rec->shape);
	} else if (rec->type == KS_REC_GUARD) {
		r = ks_units_add_guard(&m->units, &rec->guard);
	} else if (rec->type == KS_REC_SHAPED) {
		r = ks_units_shaped(&m->units);
	} else if (rec->type != KS_REC_API) {
		record_problem(m, d, idx, "a probe's record in a module's note");
		return;
	}
	if (r == -EINVAL)
		record_problem(m, d, idx,
			       "include, shape, guard or shaped record before any unit record");
}

/* Only the first malformed record is reported: a corrupt note would
 * otherwise give one message per stray NUL. */
static void record_problem(struct ks_module *m, struct ks_diags *d, size_t idx, const char *why)
{
	if (m->bad_records)
		return;
	m->bad_records = true;
	ks_diag_add(d, KS_ERROR, m->path, 0, 0, "malformed %s record %zu: %s", KS_NOTE_SECTION, idx,
		    why);
}

/* A record's file, written as Kbuild named it ("drivers/x/../y/z.c"),
 * with "." and ".." resolved as DWARF's paths are: one file, one name. */
static void clean(char **file)
{
	char *c;

	if (!*file || (!strstr(*file, "/.") && strncmp(*file, "./", 2)))
		return;
	c = ks_path_clean(NULL, *file);
	free(*file);
	*file = c;
}

static void clean_files(struct ks_record *rec)
{
	clean(&rec->unit.source);
	clean(&rec->use.file);
	clean(&rec->include.file);
	clean(&rec->shape.file);
	clean(&rec->guard.file);
}

/* One note's descriptor: NUL-terminated records. */
static void read_records(struct ks_module *m, const char *desc, size_t n, size_t *idx,
			 struct ks_diags *d)
{
	size_t off = 0;

	while (off < n) {
		const char *nul = memchr(desc + off, '\0', n - off);
		struct ks_record rec;
		const char *why = NULL;
		size_t len;
		int r;

		if (!nul) {
			record_problem(m, d, ++*idx, "record without its NUL");
			return;
		}
		len = (size_t)(nul - (desc + off));
		off += len + 1;
		if (!len)	/* padding */
			continue;
		r = ks_record_decode(desc + off - len - 1, len, &rec, &why);
		++*idx;
		if (r == 0)
			clean_files(&rec);
		if (r < 0)
			record_problem(m, d, *idx, why);
		else if (r == 0 && rec.type == KS_REC_USE)
			take_use(&m->uses, &rec.use);
		else if (r == 0 && rec.type == KS_REC_UNIT)
			take_unit(m, &rec.unit);
		else if (r == 0)
			take_shape(m, &rec, d, *idx);
		ks_record_free(&rec);
	}
}

/* Record problems go to recd: they count only if the module is usable. */
int ks_records_read(struct ks_module *m, Elf *elf, Elf_Scn *scn, struct ks_diags *d,
		    struct ks_diags *recd)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t off = 0, next, name_off, desc_off, idx = 0;
	GElf_Nhdr nh;

	(void)elf;
	if (!data)
		return ks_elf_problem(d, m->path, "cannot read " KS_NOTE_SECTION);
	while (off < data->d_size &&
	       (next = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		const char *base = data->d_buf;

		if (nh.n_namesz == sizeof(KS_NOTE_NAME) && nh.n_type == KS_NOTE_TYPE &&
		    ks_in_range(name_off, nh.n_namesz, data->d_size) &&
		    ks_in_range(desc_off, nh.n_descsz, data->d_size) &&
		    !memcmp(base + name_off, KS_NOTE_NAME, sizeof(KS_NOTE_NAME)))
			read_records(m, base + desc_off, nh.n_descsz, &idx, recd);
		off = next;
	}
	if (off < data->d_size)
		record_problem(m, recd, idx + 1, "truncated note");
	return 0;
}
