/* A stand-in for kernel headers: the plugin tests pass this tree as
 * -fplugin-arg-ksunset-kernel-dir, so uses inside it are the kernel's. */
#ifndef KSUNSET_TEST_KERNEL_H
#define KSUNSET_TEST_KERNEL_H

struct timespec64 { long long tv_sec; long tv_nsec; };
struct file;
struct inode;
struct file_operations {
	long long (*llseek)(struct file *, long long, int);
	int (*open)(struct inode *, struct file *);
};

extern int do_settimeofday64(const struct timespec64 *ts);
extern long long noop_llseek(struct file *f, long long off, int whence);
extern int nonseekable_open(struct inode *i, struct file *f);
extern unsigned long volatile jiffies;
extern int legacy_printk(const char *fmt, ...);
extern int __register_chrdev(unsigned int major, const char *name);
extern void __unregister_chrdev(unsigned int major, const char *name);
extern unsigned long simple_strtoul(const char *cp, char **endp, unsigned int base);
struct legacy_algo { int (*xfer)(int); };
struct legacy_adapter { const struct legacy_algo *algo; int nr; };
extern struct legacy_adapter *legacy_adap;
extern void **legacy_table(int bar);

static inline int register_chrdev(unsigned int major, const char *name)
{
	return __register_chrdev(major, name);
}

static inline void unregister_chrdev(unsigned int major, const char *name)
{
	__unregister_chrdev(major, name);
}

/* a wrapper of a wrapper: reported at the module's call of the outer one */
static inline int register_two(unsigned int major, const char *name)
{
	return register_chrdev(major, name) + register_chrdev(major + 1, name);
}

/* a wrapper that reads a variable */
static inline unsigned long read_ticks(void)
{
	return jiffies;
}

/* a default returned by address, which the optimiser propagates into the
 * next inline function's body */
struct legacy_zone { int id; unsigned char dir; };
extern const struct legacy_zone legacy_zone_dflt;

static inline const struct legacy_zone *zone_tmpl(const struct legacy_zone *tmpl)
{
	if (!tmpl)
		return &legacy_zone_dflt;
	return tmpl;
}

static inline int zone_id(const struct legacy_zone *zone, int dir)
{
	return zone->dir & dir ? zone->id : 0;
}

#define TICKS() read_ticks()
extern int strncmp(const char *a, const char *b, unsigned long n);

#define set_clock(ts) do_settimeofday64(ts)
#define time_now() (jiffies)
#define time_after(a, b) ((long)((b) - (a)) < 0)
#define __init __attribute__((__section__(".init.text"), __cold__))
#define __exit __attribute__((__section__(".exit.text"), __cold__))
#define NULL ((void *)0)

/* not scheduled: what api= records (api.c) */
extern int kernel_plain(int x);
extern void kernel_release(void *p);
static inline int kernel_inline(int x)
{
	return kernel_plain(x) + 1;
}
#define kernel_macro(x) kernel_inline((x) * 2)
#define kernel_twice(x) (kernel_macro(x) + kernel_macro(x))
#define KERNEL_CONST 3
/* names pasted by a macro, as BUFFER_FNS makes buffer_mapped */
#define KERNEL_FNS(name) \
	static inline int kernel_get_##name(int x) { return x; }
KERNEL_FNS(hdr)

/* what api= records of structs, callbacks, variables and typedefs (shapes.c) */
typedef unsigned int kernel_flags_t;
typedef struct { int counter; } kernel_atomic_t;
struct kernel_dev;
struct kernel_ops {
	int (*probe)(struct kernel_dev *dev);
	void (*remove)(struct kernel_dev *dev);
	const char *name;
};
struct kernel_dev {
	kernel_flags_t flags;
	union {
		const kernel_flags_t ro_flags;
		kernel_flags_t __rw_flags;
	};
	char tag[8];
	kernel_atomic_t refs;
	const struct kernel_ops *ops;
};
extern struct kernel_dev kernel_root;
extern long kernel_dev_get(struct kernel_dev *dev, kernel_flags_t flags);
extern void kernel_dev_put(const struct kernel_dev *dev);

#endif
