/* A uapi-style header of the module's own: a kernel struct embedded by
 * value, complete where evdi includes it on 6.1 (drm_ioctl.h brought
 * drm.h), incomplete there on 6.12 (a header the unit includes later
 * brings it, too late).
 * forecast: break incomplete struct drm_event embed_uapi.h:9
 */
#include <linux/types.h>
struct embed_event {
	struct drm_event base;
	__u32 mode;
};
