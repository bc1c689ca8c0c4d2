/* Another kernel, as `diff` and `check --target` name it: a Module.symvers,
 * or a kernel build or headers directory holding one; its exports and its
 * release. */
#ifndef KS_KERNEL_H
#define KS_KERNEL_H

#include "compiler.h"
#include "diag.h"
#include "input/symvers.h"

struct ks_kernel {
	char *arg;		/* as given, for messages */
	char *dir;		/* the directory given; NULL for a Module.symvers */
	char *symvers;		/* the Module.symvers read */
	char *release;		/* as uname -r prints it; NULL: unknown */
	struct ks_symvers sv;
};

/* Reads the kernel at arg. The release is the directory's UTS_RELEASE
 * (include/generated/utsrelease.h, what modules' vermagic says), else its
 * include/config/kernel.release. Every problem is one diagnostic naming
 * the file (and line): an argument that is neither a Module.symvers nor a
 * directory holding one, or a malformed row (the first, with the number of
 * others). Returns 0, -EINVAL or -errno. */
int ks_kernel_open(struct ks_kernel *k, const char *arg, struct ks_diags *d) KS_MUST_CHECK;
/* Sets the release (--new-release, --target-release). */
void ks_kernel_set_release(struct ks_kernel *k, const char *release);
void ks_kernel_free(struct ks_kernel *k);

#endif
