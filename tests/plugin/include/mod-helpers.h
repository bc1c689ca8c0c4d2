/* A module's own header: uses in it are reported where they are written. */
static inline int mod_reset_clock(const struct timespec64 *ts)
{
	return do_settimeofday64(ts);
}
