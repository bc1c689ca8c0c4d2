/* One unit of the multi-unit fixture (tests/unit/check_dwarfpick.c): a
 * function that calls an undefined import, a table that holds another,
 * and a local function, as a module's units have. */
extern int import_a(int);
extern int import_data_a(void);

static int (*const table_a[])(void) __attribute__((used)) = { import_data_a };

static int __attribute__((noinline)) helper_a(int x)
{
	return import_a(x) + 1;
}

int unit_a(int x)
{
	return helper_a(x) * 2;
}
