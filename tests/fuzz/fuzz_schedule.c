/* libFuzzer target: the schedule parser. Every input must parse or be
 * rejected with positioned diagnostics; what parses must be consistent. */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "schedule.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool names(const struct ks_entry *e, const char *sym)
{
	for (size_t i = 0; e && i < e->nsyms; i++)
		if (!strcmp(e->syms[i], sym))
			return true;
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ks_schedule s = KS_SCHEDULE_INIT;
	struct ks_diags d = { 0 };
	int r = ks_schedule_parse(&s, "fuzz.schedule", (const char *)data, size, &d);

	assert(r == 0 || r == -EINVAL);
	assert(r != -EINVAL || d.nerrors > 0);
	for (size_t i = 0; i < d.n; i++) {
		char *line = ks_diag_format(&d.v[i]);

		assert(strncmp(line, "fuzz.schedule:", 14) == 0);
		free(line);
	}
	/* every symbol of every kept entry is found again, in an entry that
	 * names it (a duplicate finds the first) */
	for (size_t i = 0; i < s.n; i++)
		for (size_t j = 0; j < s.entries[i]->nsyms; j++)
			assert(names(ks_schedule_lookup(&s, s.entries[i]->syms[j]),
				     s.entries[i]->syms[j]));
	ks_schedule_free(&s);
	ks_diags_free(&d);
	return 0;
}
