/* The module's own inline helper: a use inside it is the module's line. */
static inline void demo_settime(struct timespec64 *ts)
{
	do_settimeofday64(ts);			/* dwarf: do_settimeofday64 call demo_settime */
}
