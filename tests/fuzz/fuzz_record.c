/* libFuzzer target: record decoding (module notes and probe results). A
 * record that decodes is encoded again and must decode to the same fields
 * (the format has one home). */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <ksunset/record.h>

#include "buf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void encode(struct ks_buf *b, const struct ks_record *rec)
{
	switch (rec->type) {
	case KS_REC_USE:
		ks_record_encode_use(b, &rec->use);
		break;
	case KS_REC_API:
		ks_record_encode_api(b, &rec->use);
		break;
	case KS_REC_INCLUDE:
		ks_record_encode_include(b, &rec->include);
		break;
	case KS_REC_SHAPE:
		ks_record_encode_shape(b, &rec->shape);
		break;
	case KS_REC_FACT:
		ks_record_encode_fact(b, &rec->fact);
		break;
	case KS_REC_ERROR:
		ks_record_encode_error(b, &rec->error);
		break;
	case KS_REC_GUARD:
		ks_record_encode_guard(b, &rec->guard);
		break;
	default:
		ks_record_encode_unit(b, rec->unit.source, rec->unit.digest, rec->unit.gcc_version);
	}
}

/* Encoded, decoded again and encoded once more, the bytes agree: every
 * field survived. */
static void round_trip(const struct ks_record *rec)
{
	struct ks_buf b = KS_BUF_INIT, b2 = KS_BUF_INIT;
	struct ks_record again;
	const char *why = NULL;

	encode(&b, rec);
	assert(b.len > 0 && b.p[b.len - 1] == '\0');
	assert(ks_record_decode(b.p, b.len - 1, &again, &why) == 0);
	assert(again.type == rec->type);
	encode(&b2, &again);
	assert(b2.len == b.len && !memcmp(b.p, b2.p, b.len));
	ks_record_free(&again);
	ks_buf_free(&b);
	ks_buf_free(&b2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ks_record rec;
	const char *why = NULL;
	int r = ks_record_decode((const char *)data, size, &rec, &why);

	assert(r == 0 || r == 1 || r == -EINVAL);
	assert(r != -EINVAL || (why && *why));
	if (r == 0)
		round_trip(&rec);
	ks_record_free(&rec);
	return 0;
}
