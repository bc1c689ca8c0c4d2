/* One unit of the multi-unit fixture (tests/unit/check_dwarfpick.c): a
 * function that calls an undefined import, a table that holds another,
 * and a local function, as a module's units have. */
extern int import_c(int);
extern int import_data_c(void);

static int (*const table_c[])(void) __attribute__((used)) = { import_data_c };

static int __attribute__((noinline)) helper_c(int x)
{
	return import_c(x) + 1;
}

int unit_c(int x)
{
	return helper_c(x) * 2;
}
