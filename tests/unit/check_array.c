/* Growing arrays: the capacity doubles, the elements stay, a size that
 * overflows is out of memory. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "array.h"
#include "buf.h"
#include "suites.h"

/* From capacity cap, room for n: the capacity it ends with. */
static const struct {
	size_t cap, n, want;
} room_cases[] = {
	{ 0, 0, 0 },	/* nothing asked: nothing allocated */
	{ 0, 1, 16 },	/* the first capacity */
	{ 0, 16, 16 },
	{ 0, 17, 32 },
	{ 0, 1000, 1024 },
	{ 16, 16, 16 },	/* room already */
	{ 16, 17, 32 },	/* doubled */
	{ 24, 25, 48 },
	{ 3, 4, 6 },	/* a capacity set elsewhere doubles too */
	{ 3, 100, 192 },
};

START_TEST(test_room)
{
	size_t cap = room_cases[_i].cap, n = room_cases[_i].n;
	int *v = cap ? calloc(cap, sizeof(*v)) : NULL;

	if (cap)
		v[cap - 1] = 42;
	ks_array_room((void **)&v, &cap, n, sizeof(*v));
	ck_assert_msg(cap == room_cases[_i].want, "cap %zu, room for %zu: got %zu, want %zu",
		      room_cases[_i].cap, n, cap, room_cases[_i].want);
	ck_assert(!n || v);
	if (room_cases[_i].cap)
		ck_assert_int_eq(v[room_cases[_i].cap - 1], 42);	/* kept */
	if (n)
		v[n - 1] = 1;	/* writable to the end (ASan's check) */
	free(v);
}
END_TEST

/* One element at a time, as the callers add them. */
START_TEST(test_room_append)
{
	size_t n = 0, cap = 0;
	long *v = NULL;

	for (long i = 0; i < 1000; i++) {
		ks_array_room((void **)&v, &cap, n + 1, sizeof(*v));
		ck_assert_uint_ge(cap, n + 1);
		v[n++] = i;
	}
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(v[i], (long)i);
	free(v);
}
END_TEST

/* Without a capacity kept: one element at a time, and several at once,
 * every element writable (ASan's check) and kept. */
START_TEST(test_grow)
{
	size_t n = 0;
	long *v = NULL;

	for (long i = 0; i < 1000; i++) {
		ks_array_grow((void **)&v, n, 1, sizeof(*v));
		v[n++] = i;
	}
	ks_array_grow((void **)&v, n, 500, sizeof(*v));
	for (long i = 1000; i < 1500; i++)
		v[n++] = i;
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(v[i], (long)i);
	free(v);
}
END_TEST

/* A size that overflows is out of memory: the program says so and exits
 * with status 2, never asking malloc for a wrapped size. */
START_TEST(test_room_overflow)
{
	size_t cap = 4;
	char *v = malloc(cap);

	ks_array_room((void **)&v, &cap, _i ? 5 : SIZE_MAX / 2, _i ? SIZE_MAX / 4 : 4);
	free(v);
}
END_TEST

/* String vectors: add appends every string, alike ones too (a macro's
 * arguments "0" and "0" are two); add_unique keeps one of each. */
START_TEST(test_strv)
{
	char **v = NULL, **u = NULL;
	size_t n = 0, nu = 0;
	const char *in[] = { "4", "0", "8", "0" };

	for (size_t i = 0; i < KS_ARRAY_SIZE(in); i++) {
		ks_strv_add(&v, &n, in[i]);
		ks_strv_add_unique(&u, &nu, in[i]);
	}
	ck_assert_uint_eq(n, 4);
	ck_assert_str_eq(v[3], "0");
	ck_assert_uint_eq(nu, 3);
	ck_assert_str_eq(u[2], "8");
	ks_strv_free(v, n);
	ks_strv_free(u, nu);
}
END_TEST

static Suite *suite_array(void)
{
	Suite *s = suite_create("array");
	TCase *tc = tcase_create("room");

	tcase_add_loop_test(tc, test_room, 0, KS_NCASES(room_cases));
	tcase_add_test(tc, test_room_append);
	tcase_add_test(tc, test_grow);
	tcase_add_loop_exit_test(tc, test_room_overflow, 2, 0, 2);
	tcase_add_test(tc, test_strv);
	suite_add_tcase(s, tc);
	return s;
}
KS_SUITE(suite_array)
