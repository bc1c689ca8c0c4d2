/* Kernel policy the checker follows as modpost does: which undefined
 * names are not imports. (Which licenses are GPL-compatible is in lib/,
 * since the plugin needs it too.) */
#include <stdbool.h>
#include <string.h>

#include "module/policy.h"


/* SYM is one of EXACT, or starts with one of PREFIX. */
static bool listed(const char *sym, const char *const *exact, size_t nexact,
		   const char *const *prefix, size_t nprefix)
{
	for (size_t i = 0; i < nexact; i++)
		if (strcmp(sym, exact[i]) == 0)
			return true;
	for (size_t i = 0; i < nprefix; i++)
		if (strncmp(sym, prefix[i], strlen(prefix[i])) == 0)
			return true;
	return false;
}

bool ks_undef_ignored(const char *sym)
{
	/* linker- and arch-provided names, as modpost's ignore_undef_symbol() */
	static const char *const exact[] = { "__this_module", "_GLOBAL_OFFSET_TABLE_", ".TOC.",
					     "_gp_disp", "__gnu_local_gp" };
	static const char *const prefix[] = { "__gnu_lto_", "_restgpr_", "_savegpr_",
					      "_rest32gpr_", "_save32gpr_", "_restvr_",
					      "_savevr_" };

	if (sym[0] != '_' && sym[0] != '.')	/* the common case, quickly */
		return false;

	return listed(sym, exact, KS_ARRAY_SIZE(exact), prefix, KS_ARRAY_SIZE(prefix));
}

bool ks_import_generated(const char *sym)
{
	static const char *const exact[] = { "__fentry__", "mcount", "_mcount",
					     "__x86_return_thunk", "__stack_chk_fail",
					     "__stack_chk_guard", "__x86_indirect_thunk_array" };
	static const char *const prefix[] = { "__x86_indirect_thunk_",
					      "__x86_indirect_call_thunk_",
					      "__x86_indirect_jump_thunk_",
					      "__x86_indirect_its_thunk_" };

	return listed(sym, exact, KS_ARRAY_SIZE(exact), prefix, KS_ARRAY_SIZE(prefix));
}
