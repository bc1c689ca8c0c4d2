/* One unit of the multi-unit fixture (tests/unit/check_dwarfpick.c): a
 * function that calls an undefined import, a table that holds another,
 * and a local function, as a module's units have. */
extern int import_b(int);
extern int import_data_b(void);

static int (*const table_b[])(void) __attribute__((used)) = { import_data_b };

static int __attribute__((noinline)) helper_b(int x)
{
	return import_b(x) + 1;
}

int unit_b(int x)
{
	return helper_b(x) * 2;
}
