/* One unit of the multi-unit fixture (tests/unit/check_dwarfpick.c): a
 * function that calls an undefined import, a table that holds another,
 * and a local function, as a module's units have. */
extern int import_d(int);
extern int import_data_d(void);

static int (*const table_d[])(void) __attribute__((used)) = { import_data_d };

static int __attribute__((noinline)) helper_d(int x)
{
	return import_d(x) + 1;
}

int unit_d(int x)
{
	return helper_d(x) * 2;
}
