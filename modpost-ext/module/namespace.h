/* Symbol namespaces as the loader decides them: a string namespace a
 * module must import (MODULE_IMPORT_NS), or, since 6.16, a "module:NAME,..."
 * list of the only modules that may use the export. */
#ifndef KS_NAMESPACE_H
#define KS_NAMESPACE_H

#include <stdbool.h>

#include "module/elfmod.h"

/* Whether ns is a "module:" list (EXPORT_SYMBOL_FOR_MODULES). */
bool ks_ns_is_module_list(const char *ns);
/* Whether a "module:" list names the module modname, as the kernel's
 * verify_module_namespace() does: '-' and '_' are the same, and an entry
 * ending in '*' matches every name it begins. */
bool ks_ns_names_module(const char *ns, const char *modname);
/* Whether module m may use an export in namespace ns ("" for none). */
bool ks_ns_admits(const char *ns, const struct ks_module *m);

#endif
