/* configure_config.h.  Generated from configure_config.h.in by configure.  */
/* What a configure script found of the kernel it ran for (openafs, zfs):
 * another kernel's configure may find otherwise. */

/* setattr_prepare() takes a struct user_namespace * */
#define HAVE_SETATTR_PREPARE_USERNS 1

/* setattr_prepare() takes a struct mnt_idmap * */
/* #undef HAVE_SETATTR_PREPARE_IDMAP */
