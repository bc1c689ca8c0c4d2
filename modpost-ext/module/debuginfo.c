/* The sections that tell where a module's DWARF is, read with the
 * others (module/elfmod.c's readers[]): whether it has .debug_info, and
 * what names its separate debug file (dwarf/debugfile.c looks for it). */
#include <elf.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "module/section.h"

/* .debug_info: no need to look for a debug file. */
int ks_debug_info_seen(struct ks_module *m, Elf *elf, Elf_Scn *scn, struct ks_diags *d,
		       struct ks_diags *late)
{
	(void)elf, (void)scn, (void)d, (void)late;
	m->debug.info = true;
	return 0;
}

/* .gnu_debuglink: the file name, for ks_debugfile_possible() (the CRC is
 * read when the file is looked for). A name that cannot be read means:
 * look anyway. */
int ks_debuglink_read(struct ks_module *m, Elf *elf, Elf_Scn *scn, struct ks_diags *d,
		      struct ks_diags *late)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t len = data && data->d_buf ? strnlen(data->d_buf, data->d_size) : 0;

	(void)elf, (void)d, (void)late;
	if (!len || len == data->d_size) {
		m->debug.search = true;
		return 0;
	}
	free(m->debug.link);
	m->debug.link = ks_xstrndup(data->d_buf, len);
	return 0;
}

/* The GNU build-id note; one that cannot be read or kept means: look
 * anyway. */
int ks_build_id_read(struct ks_module *m, Elf *elf, Elf_Scn *scn, struct ks_diags *d,
		     struct ks_diags *late)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t name_off, desc_off;
	GElf_Nhdr nh;

	(void)elf, (void)d, (void)late;
	if (data && gelf_getnote(data, 0, &nh, &name_off, &desc_off) > 0 &&
	    nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == sizeof("GNU") &&
	    !memcmp((const char *)data->d_buf + name_off, "GNU", sizeof("GNU")) &&
	    nh.n_descsz > 0 && nh.n_descsz <= sizeof(m->debug.build_id) &&
	    ks_in_range(desc_off, nh.n_descsz, data->d_size)) {
		memcpy(m->debug.build_id, (const char *)data->d_buf + desc_off, nh.n_descsz);
		m->debug.build_id_len = nh.n_descsz;
	} else {
		m->debug.search = true;
	}
	return 0;
}
