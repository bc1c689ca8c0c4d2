/* A header of the module's own that names the configuration header in
 * angle brackets (both found by -I$(src)/quotes): libcpp does not enter it again, and
 * it is the module's, not the kernel's (openafs: "afsconfig.h", then
 * <afsconfig.h> in its generated headers).
 * forecast: compiles quotes_api.h:7
 */
#include <quotes_cfg.h>
#include <linux/printk.h>
