/* A small "module" for the cross-architecture checker test: it calls
 * scheduled exports, takes the address of one and reads a data export,
 * and carries the .modinfo strings a kernel module has. Built with each
 * cross compiler as a plain relocatable object. */
struct timespec64;
extern int do_settimeofday64(const struct timespec64 *ts);
extern unsigned long simple_strtoul(const char *cp, char **endp, unsigned int base);
extern long long noop_llseek(void *file, long long offset, int whence);
extern volatile unsigned long jiffies;

__attribute__((section(".modinfo"), used, aligned(1))) static const char license[] = "license=GPL";
__attribute__((section(".modinfo"), used, aligned(1))) static const char name[] = "name=uses";

long long (*const uses_llseek)(void *, long long, int) = noop_llseek;

unsigned long uses(const char *s)
{
	return do_settimeofday64(0) + simple_strtoul(s, 0, 10) + jiffies;
}
