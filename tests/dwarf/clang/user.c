/* tests/shell/t-dwarf.sh: a relocatable object that clang-14 -g -O2 -c
 * makes (no .debug_aranges, DW_OP_addrx locations, the CU's own file as
 * line-table file 0), read beside gcc's. "dwarf:" comments as in
 * tests/dwarf/kmod/dwarf_demo.c. */
#include <linux/kernel.h>

extern int ext_open(void *);
extern void ext_call(int);
extern int ext_counter;

struct ops {
	int flags;
	int (*open)(void *);
};

struct ops user_ops = { 1, ext_open };	/* dwarf: ext_open addr user_ops .open */

static inline void local_helper(int x)
{
	ext_call(x);				/* dwarf: ext_call call local_helper */
}

void user_entry(int x)
{
	local_helper(x + ext_counter);		/* dwarf: ext_counter data user_entry */
	wrapped_call(x);			/* dwarf: __wrapped_call call user_entry */
}
