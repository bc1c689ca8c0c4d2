// SPDX-License-Identifier: GPL-2.0
/* Names whose headers in 6.1 (<linux/crypto.h>, <linux/netdevice.h>)
 * no longer declare them by 6.12: their in-tree users added the #include
 * of the header that does (<crypto/algapi.h>; <net/gso.h>, which 6.1
 * does not have). */
#include <linux/crypto.h>
#include <linux/module.h>
#include <linux/netdevice.h>

static struct crypto_alg fixinc_alg = {
	.cra_name = "fixinc",
	.cra_module = THIS_MODULE,
};

struct sk_buff *fixinc_segment(struct sk_buff *skb);
struct sk_buff *fixinc_segment(struct sk_buff *skb)
{
	return skb_gso_segment(skb, 0);
}
EXPORT_SYMBOL_GPL(fixinc_segment);

static int __init fixinc_init(void)
{
	return crypto_register_alg(&fixinc_alg);
}

static void __exit fixinc_exit(void)
{
	crypto_unregister_alg(&fixinc_alg);
}
module_init(fixinc_init);
module_exit(fixinc_exit);
MODULE_LICENSE("GPL");
