/* libFuzzer target: Module.symvers parsing. */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "input/symvers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ks_symvers sv = { 0 };
	struct ks_diags d = { 0 };
	/* the parser works in place on NUL-terminated text */
	char *text = malloc(size + 1);
	int r;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	r = ks_symvers_parse(&sv, "fuzz.symvers", text, size, &d);
	assert(r == 0 || r == -EINVAL);
	assert(r != -EINVAL || d.nerrors > 0);
	for (size_t i = 0; i < sv.n; i++) {
		const struct ks_export *e = sv.v[i];

		assert(ks_symvers_lookup(&sv, e->symbol) == e);
		assert(e->symbol >= text && e->symbol < text + size + 1);
	}
	ks_symvers_free(&sv);
	ks_diags_free(&d);
	free(text);
	return 0;
}
