/* Module.symvers: the kernel's exports, as modpost writes them. */
#ifndef KS_SYMVERS_H
#define KS_SYMVERS_H

#include <stdbool.h>
#include <stddef.h>

#include "compiler.h"
#include "diag.h"
#include "strmap.h"

struct ks_export {
	const char *symbol;
	const char *module;	/* "vmlinux" or the exporting module's path */
	const char *type;	/* EXPORT_SYMBOL, EXPORT_SYMBOL_GPL */
	const char *ns;		/* "" when none */
	bool gpl;
	unsigned line;
	const char *file;
};

struct ks_symvers {
	struct ks_strmap bysym;		/* symbol -> struct ks_export */
	struct ks_export **v;		/* in file order */
	size_t n, cap;
	char **texts;			/* file contents the fields point into */
	struct ks_export **blocks;	/* the exports of each text, one block each */
	size_t nblocks;
	char **files;
	size_t nfiles;
};

/* Reads one Module.symvers (tab-separated: CRC, symbol, module, export
 * type, namespace). Bad lines are diagnostics "FILE:LINE: error: ...";
 * returns 0, -EINVAL if any line was bad, or -errno if unreadable. A symbol
 * exported twice keeps its first export, as modpost does. */
int ks_symvers_load(struct ks_symvers *sv, const char *path, struct ks_diags *d) KS_MUST_CHECK;
/* Parses text in place (it must stay alive and NUL-terminated). */
int ks_symvers_parse(struct ks_symvers *sv, const char *name, char *text, size_t len,
		     struct ks_diags *d) KS_MUST_CHECK;
const struct ks_export *ks_symvers_lookup(const struct ks_symvers *sv, const char *sym);
void ks_symvers_free(struct ks_symvers *sv);

#endif
