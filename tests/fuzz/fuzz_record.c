/* libFuzzer target: record decoding. A record that decodes is encoded
 * again and must decode to the same fields (the format has one home). */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <ksunset/record.h>

#include "buf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void same_use(const struct ks_record_use *a, const struct ks_record_use *b)
{
	assert(!strcmp(a->symbol, b->symbol) && a->kind == b->kind);
	assert(!strcmp(a->file, b->file) && a->line == b->line && a->col == b->col);
	assert(!strcmp(a->function, b->function));
	assert(a->when ? b->when && !strcmp(a->when, b->when) : !b->when);
}

static int encode(struct ks_buf *b, const struct ks_record *rec)
{
	switch (rec->type) {
	case KS_REC_USE:
		return ks_record_encode_use(b, &rec->use);
	case KS_REC_API:
		return ks_record_encode_api(b, &rec->use);
	default:
		return ks_record_encode_unit(b, rec->unit.source, rec->unit.digest,
					     rec->unit.gcc_version);
	}
}

static void round_trip(const struct ks_record *rec)
{
	struct ks_buf b = KS_BUF_INIT;
	struct ks_record again;
	const char *why = NULL;
	int r = encode(&b, rec);

	assert(r == 0 && b.len > 0 && b.p[b.len - 1] == '\0');
	assert(ks_record_decode(b.p, b.len - 1, &again, &why) == 0);
	assert(again.type == rec->type);
	if (rec->type != KS_REC_UNIT)
		same_use(&rec->use, &again.use);
	else
		assert(!strcmp(rec->unit.source, again.unit.source) &&
		       !strcmp(rec->unit.digest, again.unit.digest) &&
		       !strcmp(rec->unit.gcc_version, again.unit.gcc_version));
	ks_record_free(&again);
	ks_buf_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ks_record rec;
	const char *why = NULL;
	int r = ks_record_decode((const char *)data, size, &rec, &why);

	assert(r == 0 || r == 1 || r == -EINVAL || r == -ENOMEM);
	assert(r != -EINVAL || (why && *why));
	if (r == 0)
		round_trip(&rec);
	ks_record_free(&rec);
	return 0;
}
