/* DWARF sections written here byte by byte (bytes.h), put into an ELF
 * object in memory and opened with libdw: the oracle whose answers
 * check_dwarfline.c and check_dwarfwalk.c expect of ksunset's own
 * readers. */
#ifndef KS_TEST_ORACLE_H
#define KS_TEST_ORACLE_H

#include <check.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"

struct oracle {
	unsigned char *image;
	Elf *elf;
	Dwarf *dw;
};

/* A section of the object: its name and bytes. */
struct oracle_section {
	const char *name;
	const struct bytes *b;
};

/* An ELF64 little-endian ET_REL object of the n sections s (and
 * .shstrtab), opened with libdw. */
static inline void oracle_open(struct oracle *o, const struct oracle_section *s, size_t n)
{
	size_t data = 0, names = 1 + sizeof(".shstrtab"), at = sizeof(Elf64_Ehdr), name_at = 1;
	size_t shnum = n + 2, names_off, sh_off, size;
	Elf64_Ehdr *eh;
	Elf64_Shdr *sh;

	for (size_t i = 0; i < n; i++)
		data += s[i].b->n, names += strlen(s[i].name) + 1;
	names_off = sizeof(Elf64_Ehdr) + data;
	sh_off = (names_off + names + 7) & ~(size_t)7;
	size = sh_off + shnum * sizeof(Elf64_Shdr);
	o->image = calloc(1, size);
	ck_assert_ptr_nonnull(o->image);
	eh = (Elf64_Ehdr *)o->image;
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_REL;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	eh->e_shoff = sh_off;
	eh->e_ehsize = sizeof(Elf64_Ehdr);
	eh->e_shentsize = sizeof(Elf64_Shdr);
	eh->e_shnum = (Elf64_Half)shnum;
	eh->e_shstrndx = (Elf64_Half)(n + 1);
	sh = (Elf64_Shdr *)(o->image + sh_off);
	for (size_t i = 0; i <= n; i++) {
		const char *name = i < n ? s[i].name : ".shstrtab";
		size_t len = i < n ? s[i].b->n : names;

		strcpy((char *)o->image + names_off + name_at, name);
		sh[i + 1] = (Elf64_Shdr){ .sh_name = (Elf64_Word)name_at,
					  .sh_type = i < n ? SHT_PROGBITS : SHT_STRTAB,
					  .sh_offset = i < n ? at : names_off,
					  .sh_size = len,
					  .sh_addralign = 1 };
		if (i < n)
			memcpy(o->image + at, s[i].b->b, len);
		at += i < n ? len : 0;
		name_at += strlen(name) + 1;
	}
	elf_version(EV_CURRENT);
	o->elf = elf_memory((char *)o->image, size);
	ck_assert_ptr_nonnull(o->elf);
	o->dw = dwarf_begin_elf(o->elf, DWARF_C_READ, NULL);
	ck_assert_msg(o->dw != NULL, "libdw: %s", dwarf_errmsg(-1));
}

static inline void oracle_close(struct oracle *o)
{
	dwarf_end(o->dw);
	elf_end(o->elf);
	free(o->image);
}

#endif
