/* .modinfo: the "key=value" strings modpost and the loader read. Only
 * what the rules need is kept: name, license, vermagic, intree, import_ns. */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "array.h"
#include "module/section.h"

static void push_str(char ***v, size_t *n, size_t *cap, const char *s, size_t len)
{
	ks_array_room((void **)v, cap, *n + 1, sizeof(**v));
	(*v)[(*n)++] = ks_xstrndup(s, len);
}

static void set_str(char **dst, const char *s, size_t n)
{
	free(*dst);
	*dst = ks_xstrndup(s, n);
}

/* One "key=value" string of .modinfo. */
static void modinfo_entry(struct ks_module *m, const char *s, size_t n)
{
	const char *eq = memchr(s, '=', n);
	size_t k, vn;

	if (!eq)
		return;
	k = (size_t)(eq - s);
	vn = n - k - 1;
	if (k == 4 && !memcmp(s, "name", 4))
		set_str(&m->name, eq + 1, vn);
	else if (k == 7 && !memcmp(s, "license", 7))
		set_str(&m->license, eq + 1, vn);
	else if (k == 8 && !memcmp(s, "vermagic", 8))
		set_str(&m->vermagic, eq + 1, vn);
	else if (k == 6 && !memcmp(s, "intree", 6))
		m->intree = vn == 1 && eq[1] == 'Y';
	else if (k == 9 && !memcmp(s, "import_ns", 9))
		push_str(&m->import_ns, &m->nimport_ns, &m->capimport_ns, eq + 1, vn);
}

int ks_modinfo_read(struct ks_module *m, Elf *elf, Elf_Scn *scn, struct ks_diags *d,
		    struct ks_diags *late)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	const char *p;
	size_t off = 0;

	(void)elf;
	(void)late;
	if (!data)
		return ks_elf_problem(d, m->path, "cannot read .modinfo");
	p = data->d_buf;
	while (p && off < data->d_size) {
		const char *nul = memchr(p + off, '\0', data->d_size - off);
		size_t n = nul ? (size_t)(nul - (p + off)) : data->d_size - off;

		modinfo_entry(m, p + off, n);
		off += n + 1;
	}
	return 0;
}

