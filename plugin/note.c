/* The unit's .note.ksunset: its unit record, the records of its uses
 * (report.c) and, with api=, its includes and shapes (api.c), written into
 * the assembly as one ELF note. */
/* lib/ first: GCC's options.h defines warn_unused_result as a macro */
#include "buf.h"
#include "schedule.h"
#include <ksunset/record.h>

#include "gcc-plugin.h"
#include "tree.h"
#include "diagnostic.h"
#include "output.h"
#include "version.h"

#include <stdlib.h>
#include <string.h>

#include "api.h"

/* One record as an assembler string: printable bytes as they are, the rest
 * (TAB, and anything a path may hold) in octal. */
static bool plain(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

static void asm_string(struct ks_buf *out, const char *s, size_t n)
{
	ks_buf_adds(out, "\t.asciz \"");
	for (size_t i = 0; i < n;) {
		unsigned char c = (unsigned char)s[i];
		size_t j = i;

		while (j < n && plain((unsigned char)s[j]))
			j++;
		if (j > i) {	/* a run of plain bytes at once */
			ks_buf_add(out, s + i, j - i);
			i = j;
		} else {	/* \" \\ or \ooo, without printf: a TAB ends each field */
			char e[4] = { '\\', (char)c, 0, 0 };

			if (c != '"' && c != '\\') {
				e[1] = (char)('0' + (c >> 6));
				e[2] = (char)('0' + ((c >> 3) & 7));
				e[3] = (char)('0' + (c & 7));
			}
			ks_buf_add(out, e, c != '"' && c != '\\' ? 4 : 2);
			i++;
		}
	}
	ks_buf_adds(out, "\"\n");
}

/* One ELF note: namesz, descsz, type, "ksunset\0", the records, each part
 * padded to 4 bytes. "%note", not "@note": '@' starts a comment on ARM.
 * Built whole and written with one call: per-byte output was a visible
 * share of the plugin's cost. */
static void write_note(const struct ks_buf *desc)
{
	struct ks_buf out = KS_BUF_INIT;

	ks_buf_addf(&out,
		    "\t.pushsection %s,\"\",%%note\n\t.balign 4\n"
		    "\t.long %u\n\t.long %u\n\t.long %#x\n\t.asciz \"%s\"\n\t.balign 4\n",
		    KS_NOTE_SECTION, (unsigned)sizeof(KS_NOTE_NAME), (unsigned)desc->len,
		    KS_NOTE_TYPE, KS_NOTE_NAME);
	/* the descriptor is NUL-terminated records: one .asciz each */
	for (size_t off = 0; off < desc->len;) {
		size_t n = strnlen(desc->p + off, desc->len - off);

		asm_string(&out, desc->p + off, n);
		off += n + 1;
	}
	ks_buf_adds(&out, "\t.balign 4\n\t.popsection\n");
	fputs(out.p, asm_out_file);
	ks_buf_free(&out);
}

void ks_note_write(struct ks_plugin *p)
{
	struct ks_buf desc = KS_BUF_INIT;
	char digest[17];

	if (!asm_out_file)
		return;
	ks_schedule_digest_hex(&p->sched, digest);
	ks_record_encode_unit(&desc, main_input_filename ? main_input_filename : "", digest,
			      version_string);
	ks_puses_encode(p, &desc);
	if (p->api)
		ks_api_encode(p, &desc);
	write_note(&desc);
	ks_buf_free(&desc);
}
