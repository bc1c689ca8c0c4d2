/* The units of the DWARF differential fixture. */
#include <linux/types.h>
int du_alloc_init(void);
void du_alloc_exit(void);
int du_file_register(void);
void du_file_unregister(void);
void du_timer_start(void);
void du_timer_stop(void);
size_t du_str_len(const char *s);
void du_list_add(int v);
