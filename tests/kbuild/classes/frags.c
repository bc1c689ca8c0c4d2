// SPDX-License-Identifier: GPL-2.0
/* A kernel typedef whose struct changed (skb_frag_t: struct bio_vec in
 * 6.1, struct skb_frag in 6.12), used through the typedef and the
 * kernel's accessors: the probe names the type as the source does, by the
 * typedef, so the change is the kernel's, not a line of the module's; a
 * member of the struct named by the module is its own to change.
 * forecast: compiles frags.c:21
 * forecast: compiles frags.c:22
 * forecast: break member-gone skb_frag_t.bv_len frags.c:24
 */
#include <linux/module.h>
#include <linux/skbuff.h>

bool frags_null_page(struct sk_buff *skb);
bool frags_null_page(struct sk_buff *skb)
{
	struct skb_shared_info *shinfo = skb_shinfo(skb);
	int i;

	for (i = 0; i < shinfo->nr_frags; i++) {
		skb_frag_t *first = shinfo->frags;
		if (!skb_frag_page(&shinfo->frags[i]) || skb_frag_size(first) == 0)
			return true;
		if (!shinfo->frags[i].bv_len)
			return true;
	}
	return false;
}
EXPORT_SYMBOL_GPL(frags_null_page);

MODULE_LICENSE("GPL");
