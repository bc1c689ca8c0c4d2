/* cfginc_config.h.  Generated from cfginc_config.h.in by configure.  */
/* What a configure script found of the kernel it ran for (nvidia-fs's
 * config-host.h). */

/* <linux/blk-integrity.h> exists */
#define HAVE_BLK_INTEGRITY_H 1
