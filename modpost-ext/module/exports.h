/* A module's own exports, as Module.symvers rows: what check --target
 * adds to the target's exports for the other modules given in the same
 * run (a package's modules import each other's). */
#ifndef KS_EXPORTS_H
#define KS_EXPORTS_H

#include "buf.h"
#include "compiler.h"

/* Appends one row per export of the module at path to out: its
 * __ksymtab_NAME symbols (GPL-only in __ksymtab_gpl, the namespace from
 * __kstrtabns_NAME), or its __export_symbol_NAME ones (Linux 6.5 on: the
 * license and namespace strings they point to); and to defined, if not
 * NULL, the name of every function and variable the module defines,
 * each followed by a NUL. A file that cannot be read adds nothing: the
 * module itself is reported when it is checked. */
void ks_exports_read(const char *path, struct ks_buf *out, struct ks_buf *defined);

#endif
