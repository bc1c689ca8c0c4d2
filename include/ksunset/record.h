/* The ksunset record format: what the plugin writes into an object's
 * .note.ksunset section and the checker reads back. See ksunset-plugin(1).
 *
 * One ELF note per translation unit: name "ksunset", type KS_NOTE_TYPE, and
 * a descriptor of NUL-terminated text records:
 *   ksunset 1<TAB>unit<TAB>SOURCE-FILE<TAB>SCHEDULE-DIGEST<TAB>GCC-VERSION
 *   ksunset 1<TAB>use<TAB>SYMBOL<TAB>KIND<TAB>FILE<TAB>LINE<TAB>COLUMN<TAB>FUNCTION<TAB>WHEN
 *   ksunset 2<TAB>use<TAB>...<TAB>WHEN<TAB>ACCEPT-REASON
 *   ksunset 3<TAB>api<TAB>NAME<TAB>KIND<TAB>FILE<TAB>LINE<TAB>COLUMN<TAB>FUNCTION
 * KIND is call, addr or data. TAB, newline and backslash inside fields are
 * written \t, \n and \\.
 * A record is written in the lowest version that can say it: version 2 only
 * for a use accepted in the source (KSUNSET_ACCEPT, <ksunset/sunset.h>),
 * whose reason is the tenth field. A reader of version 1 skips it, and so
 * does not accept the use.
 * Version 3 adds api records (plugin argument api): a function of the
 * kernel's headers that the source calls (call) or takes the address of
 * (addr), or a function-like macro of theirs it expands (call), whether or
 * not the object imports it. Readers of versions 1 and 2 skip them, as
 * they did before the plugin wrote them; use records stay version 1 or 2.
 */
#ifndef KSUNSET_RECORD_H
#define KSUNSET_RECORD_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KS_NOTE_SECTION ".note.ksunset"
#define KS_NOTE_NAME "ksunset"
#define KS_NOTE_TYPE 0x4b53 /* "KS"; not 1, which tools print as NT_VERSION */
#define KS_RECORD_VERSION 3 /* the highest version read and written */

struct ks_buf;

enum ks_use_kind {
	KS_USE_CALL,	/* a call */
	KS_USE_ADDR,	/* the address of a function taken */
	KS_USE_DATA,	/* a read or write of a data symbol */
};

enum ks_record_type {
	KS_REC_UNIT,
	KS_REC_USE,
	KS_REC_API,	/* in rec->use: symbol is the name, when NULL */
};

struct ks_record_unit {
	char *source;
	char *digest;
	char *gcc_version;
};

struct ks_record_use {
	char *symbol;
	enum ks_use_kind kind;
	char *file;
	unsigned line;
	unsigned col;		/* GCC's default display column: a tab to the next multiple of 8 */
	char *function;		/* "" at file scope */
	char *when;
	char *accept_reason;	/* KSUNSET_ACCEPT's reason; NULL: not accepted */
};

struct ks_record {
	enum ks_record_type type;
	struct ks_record_unit unit;
	struct ks_record_use use;
};

const char *ks_use_kind_name(enum ks_use_kind k);
/* How long the function name fn is as the source writes it: GCC's clones
 * carry a suffix after a '.' (foo.constprop.0, foo.isra.0, foo.part.0,
 * foo.cold), which a C identifier never holds. Records store the name as
 * written, so the same function reads the same at every -O level. */
size_t ks_function_name_len(const char *fn);

/* Append one record and its terminating NUL to out. 0 or -ENOMEM. */
int ks_record_encode_unit(struct ks_buf *out, const char *source, const char *digest,
			  const char *gcc_version);
int ks_record_encode_use(struct ks_buf *out, const struct ks_record_use *u);
/* An api record: u's symbol (the name written), kind, file, line, col and
 * function; when and accept_reason are not part of it. */
int ks_record_encode_api(struct ks_buf *out, const struct ks_record_use *u);

/* Decode one record (n bytes, without its NUL). Returns 0, 1 if the record
 * is of a newer version and was skipped, or -EINVAL with *why set. */
int ks_record_decode(const char *p, size_t n, struct ks_record *rec, const char **why);
void ks_record_free(struct ks_record *rec);

#ifdef __cplusplus
}
#endif

#endif
