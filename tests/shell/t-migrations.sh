#!/bin/sh
# scripts/migrations.sh: how in-tree code adapted between two source trees
# (two small trees made here: a header renamed and another dropped), and
# the shipped file of Debian's 6.1 and 6.12 in its format. Bad trees are
# refused with exit 2.
. "$(dirname "$0")/lib.sh"
M="$TOP/scripts/migrations.sh"
LC_ALL=C
export LC_ALL

# tree DIR RELEASE: a tree of that release's Makefile
tree() {
	mkdir -p "$1/include/linux" "$1/drivers"
	printf 'VERSION = %s\nPATCHLEVEL = %s\n' "${2%.*}" "${2#*.}" >"$1/Makefile"
}
o=$TMP/old n=$TMP/new
tree "$o" 6.1
tree "$n" 6.12
# five drivers: four move from asm/unaligned.h to linux/unaligned.h, the
# fifth drops it for nothing; every one stops including linux/gone.h, for
# nothing common; linux/kept.h stays everywhere
for i in 1 2 3 4 5; do
	printf '#include <linux/kept.h>\n#include <asm/unaligned.h>\n#include <linux/gone.h>\nint d%s;\n' "$i" \
		>"$o/drivers/d$i.c"
	if [ "$i" -lt 5 ]; then
		printf '#include <linux/kept.h>\n#include <linux/unaligned.h>\n#include <linux/other%s.h>\nint d%s;\n' "$i" "$i"
	else
		printf '#include <linux/kept.h>\nint d%s;\n' "$i"
	fi >"$n/drivers/d$i.c"
done
# three more stop including linux/split.h: two for linux/split_a.h, one
# for linux/split_b.h; no single rewrite
for i in 6 7 8; do
	printf '#include <linux/split.h>\nint d%s;\n' "$i" >"$o/drivers/d$i.c"
	printf '#include <linux/split_%s.h>\nint d%s;\n' "$([ "$i" -lt 8 ] && echo a || echo b)" "$i" \
		>"$n/drivers/d$i.c"
done
# calls, at six callers in six files: mkclass() loses its first argument
# at all; lock_init() gains a constant second one at four; split() loses
# its first at three and its second at three: no single rewrite
printf '#define mkclass(owner, name) __mkclass(owner, name)\nint lock_init(int *a);\nint split(int a, int b);\nint oldcpy(char *d, const char *s);\n' \
	>"$o/include/linux/api.h"
printf 'int mkclass(const char *name);\nint lock_init(int *a, int n);\nint split(int a);\nint newcpy(char *d, const char *s);\n' \
	>"$n/include/linux/api.h"
# and oldcpy(), gone, whose callers call newcpy() with the same arguments
# in five of the six functions (the sixth calls nothing in its place)
for i in 1 2 3 4 5 6; do
	printf 'void g%s(void)\n{\n\toldcpy(d, "g%s");\n}\n' "$i" "$i" >"$o/drivers/g$i.c"
	printf 'void g%s(void)\n{\n\t%s(d, "g%s");\n}\n' "$i" "$([ "$i" -le 5 ] && echo newcpy || echo other)" "$i" \
		>"$n/drivers/g$i.c"
done
for i in 1 2 3 4 5 6; do
	printf '#include <linux/api.h>\nstatic int f%s(void)\n{\n\treturn mkclass(THIS_MODULE, "c%s") +\n\t       lock_init(&l%s) + split(%s, x);\n}\n' \
		"$i" "$i" "$i" "$i" >"$o/drivers/c$i.c"
	printf '#include <linux/api.h>\nstatic int f%s(void)\n{\n\treturn mkclass("c%s") +\n\t       lock_init(&l%s, %s) + split(%s);\n}\n' \
		"$i" "$i" "$i" "$([ "$i" -le 4 ] && echo 1 || echo "$i")" "$([ "$i" -le 3 ] && echo x || echo "$i")" \
		>"$n/drivers/c$i.c"
done
# and three functions whose assignments to vm_flags became calls of the
# accessors the new headers declare
printf 'struct vm_area_struct { unsigned long vm_flags; };\n' >>"$o/include/linux/api.h"
printf 'void vm_flags_set(struct vm_area_struct *v, unsigned long f);\nvoid vm_flags_clear(struct vm_area_struct *v, unsigned long f);\n' \
	>>"$n/include/linux/api.h"
for i in 1 2 3; do
	printf 'int m%s(struct vm_area_struct *vma)\n{\n\tvma->vm_flags |= VM_IO;\n\tvma->vm_flags &= ~(VM_A | VM_B);\n\treturn 0;\n}\n' \
		"$i" >"$o/drivers/m$i.c"
	printf 'int m%s(struct vm_area_struct *vma)\n{\n\tvm_flags_set(vma, VM_IO);\n\tvm_flags_clear(vma, VM_A | VM_B);\n\treturn 0;\n}\n' \
		"$i" >"$n/drivers/m$i.c"
done
# and callbacks stored in struct members: at four drivers devnode's
# parameter became const; at three report's return type did; at three
# check's parameter points to another struct (its name changed too);
# probe changed at one driver only, two ways at once
for i in 1 2 3 4; do
	{
		printf 'static char *\nn%s_devnode(struct device *dev, umode_t *mode)\n{\n\treturn 0;\n}\n' "$i"
		printf 'static u8 *n%s_report(struct hid *h) { return 0; }\n' "$i"
		printf 'static int n%s_check(struct user_ns *ns, int x)\n{\n\treturn x;\n}\n' "$i"
		printf 'static int n%s_probe(struct dev *d, int a) { return a; }\n' "$i"
		printf 'static struct class n%s_class = {\n\t.devnode = n%s_devnode,\n};\n' "$i" "$i"
		printf 'static const struct hid_driver n%s_hid = {\n\t.report = n%s_report,\n\t.check = n%s_check,\n\t.probe = n%s_probe,\n};\n' \
			"$i" "$i" "$i" "$i"
	} >"$o/drivers/n$i.c"
	{
		printf 'static char *\nn%s_devnode(const struct device *dev, umode_t *mode)\n{\n\treturn 0;\n}\n' "$i"
		printf 'static %su8 *n%s_report(struct hid *h) { return 0; }\n' "$([ "$i" -le 3 ] && echo 'const ')" "$i"
		printf 'static int n%s_check(struct %s *%s, int x)\n{\n\treturn x;\n}\n' "$i" \
			"$([ "$i" -le 3 ] && echo 'idmap' || echo user_ns)" "$([ "$i" -le 3 ] && echo map || echo ns)"
		printf 'static int n%s_probe(%s) { return 0; }\n' "$i" "$([ "$i" = 4 ] && echo 'const struct dev *d' || echo 'struct dev *d, int a')"
		printf 'static struct class n%s_class = {\n\t.devnode = n%s_devnode,\n};\n' "$i" "$i"
		printf 'static const struct hid_driver n%s_hid = {\n\t.report = n%s_report,\n\t.check = n%s_check,\n\t.probe = n%s_probe,\n};\n' \
			"$i" "$i" "$i" "$i"
	} >"$n/drivers/n$i.c"
done
# and at three drivers a callback whose parameter points to another
# struct, whose bodies no longer read its member as they did: more than
# the head's rewrite, no entry
for i in 1 2 3; do
	printf 'static int n%s_get(struct eee *e)\n{\n\te->adv = 1;\n\treturn 0;\n}\nstatic const struct eee_ops n%s_eops = {\n\t.get = n%s_get,\n};\n' \
		"$i" "$i" "$i" >>"$o/drivers/n$i.c"
	printf 'static int n%s_get(struct keee *e)\n{\n\tlinkmode_set(e->adv, 1);\n\treturn 0;\n}\nstatic const struct eee_ops n%s_eops = {\n\t.get = n%s_get,\n};\n' \
		"$i" "$i" "$i" >>"$n/drivers/n$i.c"
done
# and at three drivers a callback whose second parameter went, the others
# kept; at a fourth one went and another changed: not the same rewrite
for i in 1 2 3 4; do
	printf 'static int n%s_time(struct inode *i, struct timespec64 *t, int f)\n{\n\treturn f;\n}\nstatic const struct inode_ops n%s_iops = {\n\t.update = n%s_time,\n};\n' \
		"$i" "$i" "$i" >>"$o/drivers/n$i.c"
	printf 'static int n%s_time(struct inode *i, %s f)\n{\n\treturn f;\n}\nstatic const struct inode_ops n%s_iops = {\n\t.update = n%s_time,\n};\n' \
		"$i" "$([ "$i" = 4 ] && echo long || echo int)" "$i" "$i" >>"$n/drivers/n$i.c"
done
# and at five drivers a probe callback whose second parameter went, the
# body reading it: four declare it, first in their bodies, a local set by
# a function of their first parameter; the fifth a local of another type
for i in 1 2 3 4 5; do
	printf 'static int q%s_probe(struct client *c, const struct dev_id *id)\n{\n\treturn id->data;\n}\nstatic struct bus_drv q%s_drv = {\n\t.probe = q%s_probe,\n};\n' \
		"$i" "$i" "$i" >"$o/drivers/q$i.c"
	if [ "$i" -lt 5 ]; then
		printf 'static int q%s_probe(struct client *c)\n{\n\tconst struct dev_id *id = client_get_id(c);\n\n\treturn id->data;\n}\nstatic struct bus_drv q%s_drv = {\n\t.probe = q%s_probe,\n};\n' \
			"$i" "$i" "$i"
	else
		printf 'static int q%s_probe(struct client *c)\n{\n\tint id = c->data;\n\n\treturn id;\n}\nstatic struct bus_drv q%s_drv = {\n\t.probe = q%s_probe,\n};\n' \
			"$i" "$i" "$i"
	fi >"$n/drivers/q$i.c"
done
# and a function gone whose old header wraps it, passing a constant
# (is_usb(d) was uses_drv(d, &usb_drv)), the wrapper still declared; and
# one gone whose wrapper passes something of its own (a call) too
printf 'int uses_drv(struct dev *d, struct drv *x);\nint old_sum(int a, int b);\n\nstatic inline int is_usb(struct dev *d)\n{\n\treturn uses_drv(d, &usb_drv);\n}\nstatic inline int sum1(int a)\n{\n\treturn old_sum(a, f(1));\n}\n' \
	>"$o/include/linux/wrap.h"
printf 'int sum1(int a);\nint is_usb(struct dev *d);\n' >"$n/include/linux/wrap.h"
# and one gone that two wrappers wrap, each passing its own constant
printf 'int old_get(struct dev *d, int b, int flags);\nstatic inline int get_mov(struct dev *d, int b)\n{\n\treturn old_get(d, b, __MOV);\n}\nstatic inline int get_unmov(struct dev *d, int b)\n{\n\treturn old_get(d, b, 0);\n}\n' \
	>>"$o/include/linux/wrap.h"
printf 'int get_mov(struct dev *d, int b);\nint get_unmov(struct dev *d, int b);\n' >>"$n/include/linux/wrap.h"
# and a member gone from its struct (fd's file) whose reads in three
# functions became calls of a macro new in the headers
printf 'struct fd {\n\tstruct file *file;\n\tunsigned int flags;\n};\n' >>"$o/include/linux/api.h"
printf 'struct fd {\n\tunsigned long word;\n};\n#define fd_file(f) ((struct file *)((f).word))\n' >>"$n/include/linux/api.h"
for i in 1 2 3; do
	printf 'int r%s(struct x *p)\n{\n\tif (!p->fd.file)\n\t\treturn 1;\n\treturn use(p->fd.file);\n}\n' "$i" >"$o/drivers/r$i.c"
	printf 'int r%s(struct x *p)\n{\n\tif (!fd_file(p->fd))\n\t\treturn 1;\n\treturn use(fd_file(p->fd));\n}\n' "$i" >"$n/drivers/r$i.c"
done
# and a member gone from its struct (inode's i_ctime) whose assignments
# became calls of its setters: of the time now with the inode alone, of a
# value with the inode and the value; an on-disk inode's i_ctime, which
# the newer version still assigns there, is no site of it
printf 'struct inode {\n\tstruct timespec64 i_ctime;\n\tint i_mode;\n};\n' >>"$o/include/linux/api.h"
printf 'struct inode {\n\tstruct timespec64 __i_ctime;\n\tint i_mode;\n};\n' >>"$n/include/linux/api.h"
printf 'struct timespec64 inode_set_ctime_current(struct inode *i);\nstruct timespec64 inode_set_ctime_to_ts(struct inode *i, struct timespec64 t);\n' \
	>>"$n/include/linux/api.h"
for i in 1 2 3; do
	printf 'void t%s(struct inode *inode, struct timespec64 ts)\n{\n\tinode->i_ctime = current_time(inode);\n\tinode->i_ctime = ts;\n\traw->i_ctime = 1;\n}\n' \
		"$i" >"$o/drivers/t$i.c"
	printf 'void t%s(struct inode *inode, struct timespec64 ts)\n{\n\tinode_set_ctime_current(inode);\n\tinode_set_ctime_to_ts(inode, ts);\n\traw->i_ctime = 1;\n}\n' \
		"$i" >"$n/drivers/t$i.c"
done
# and its reads, which became calls of its getters: of the whole value,
# and of its field tv_sec; a field written is no read
printf 'struct timespec64 inode_get_ctime(struct inode *i);\nlong inode_get_ctime_sec(struct inode *i);\nvoid inode_set_ctime(struct inode *i, long s, long ns);\n' \
	>>"$n/include/linux/api.h"
for i in 1 2 3; do
	printf 'long u%s(struct inode *inode, struct timespec64 *t)\n{\n\t*t = inode->i_ctime;\n\tinode->i_ctime.tv_nsec = 0;\n\treturn inode->i_ctime.tv_sec;\n}\n' \
		"$i" >"$o/drivers/u$i.c"
	printf 'long u%s(struct inode *inode, struct timespec64 *t)\n{\n\t*t = inode_get_ctime(inode);\n\tinode_set_ctime(inode, inode_get_ctime_sec(inode), 0);\n\treturn inode_get_ctime_sec(inode);\n}\n' \
		"$i" >"$n/drivers/u$i.c"
done
# and a function that moved to another header (reg_alg, to
# crypto/algapi.h), a struct whose header the others no longer include
# (ring): three files that name both in both trees add their #includes;
# a fourth that names reg_alg only in the new tree is no adaptation
mkdir -p "$n/include/crypto"
printf 'int reg_alg(struct alg *a);\n' >"$o/include/linux/crypto.h"
printf 'struct alg;\n' >"$n/include/linux/crypto.h"
printf 'int reg_alg(struct alg *a);\n' >"$n/include/crypto/algapi.h"
printf 'struct ring {\n\tint head;\n};\n' | tee "$o/include/linux/ring.h" >"$n/include/linux/ring.h"
for i in 1 2 3; do
	printf '#include <linux/crypto.h>\nstatic struct ring r%s;\nint i%s(struct alg *a)\n{\n\treturn reg_alg(a);\n}\n' \
		"$i" "$i" >"$o/drivers/i$i.c"
	printf '#include <linux/crypto.h>\n#include <crypto/algapi.h>\n#include <linux/ring.h>\nstatic struct ring r%s;\nint i%s(struct alg *a)\n{\n\treturn reg_alg(a);\n}\n' \
		"$i" "$i" >"$n/drivers/i$i.c"
done
printf 'int i4;\n' >"$o/drivers/i4.c"
printf '#include <crypto/algapi.h>\nint i4(struct alg *a) { return reg_alg(a); }\n' >"$n/drivers/i4.c"
# and a flag gone (SPREAD) that three files dropped from the flags they
# OR-ed it with: on its line, in a statement joined onto fewer lines, and
# where it stood alone, 0 in its place
printf '#define SPREAD 0x100\n' >>"$o/include/linux/api.h"
printf 'int k1(void)\n{\n\tc = mk("a", 8,\n\t       OTHER|SPREAD,\n\t       NULL);\n\treturn 0;\n}\n' >"$o/drivers/k1.c"
printf 'int k1(void)\n{\n\tc = mk("a", 8, OTHER,\n\t       NULL);\n\treturn 0;\n}\n' >"$n/drivers/k1.c"
printf 'int k2(void)\n{\n\treturn mk("b", 0, SPREAD);\n}\n' >"$o/drivers/k2.c"
printf 'int k2(void)\n{\n\treturn mk("b", 0, 0);\n}\n' >"$n/drivers/k2.c"
printf 'int k3(void)\n{\n\treturn mk("c", 0, OTHER | SPREAD);\n}\n' >"$o/drivers/k3.c"
printf 'int k3(void)\n{\n\treturn mk("c", 0, OTHER);\n}\n' >"$n/drivers/k3.c"
# and a function whose first parameter became another struct's pointer,
# its number kept: of four callers that passed &init_ns, three pass
# &nop_idmap in its place, one kept it; the constant 0 they pass second
# stays everywhere; a caller's own variable passed is no fact
printf 'int prep(struct user_ns *ns, int f);\n' >>"$o/include/linux/api.h"
printf 'int prep(struct idmap *m, int f);\n' >>"$n/include/linux/api.h"
for i in 1 2 3 4; do
	printf 'int p%s(struct user_ns *ns)\n{\n\treturn prep(&init_ns, 0) + prep(ns, 0);\n}\n' "$i" >"$o/drivers/p$i.c"
	printf 'int p%s(struct idmap *m)\n{\n\treturn prep(%s, 0) + prep(m, 0);\n}\n' "$i" \
		"$([ "$i" -le 3 ] && echo '&nop_idmap' || echo '&init_ns')" >"$n/drivers/p$i.c"
done
# and a function whose second parameter went (cfg), called once in each
# of three files from a function renamed there (init became hotplug)
printf 'int cfg(struct helper *h, int bpp);\n' >>"$o/include/linux/api.h"
printf 'int cfg(struct helper *h);\n' >>"$n/include/linux/api.h"
for i in 1 2 3; do
	printf 'int v%s_init(struct helper *h)\n{\n\treturn cfg(h, 32);\n}\n' "$i" >"$o/drivers/v$i.c"
	printf 'int v%s_hotplug(struct helper *h)\n{\n\treturn cfg(h);\n}\n' "$i" >"$n/drivers/v$i.c"
done
# and a member gone from its struct (mops' poll_changed) whose initializers
# three files deleted, where they stored a helper the file does not
# define; a fourth file stores its own function there, which it now
# stores in another member: no rewrite
printf 'struct mops {\n\tint (*create)(void);\n\tvoid (*poll_changed)(void);\n\tvoid (*poll)(void);\n};\n' \
	>>"$o/include/linux/api.h"
printf 'struct mops {\n\tint (*create)(void);\n\tvoid (*poll)(void);\n};\n' >>"$n/include/linux/api.h"
for i in 1 2 3 4; do
	if [ "$i" = 4 ]; then pc=w4_poll; else pc=helper_poll; fi
	printf 'static void w4_poll(void)\n{\n}\nstatic int w%s_create(void)\n{\n\treturn 0;\n}\nstatic const struct mops w%s_ops = {\n\t.create = w%s_create,\n\t.poll_changed = %s,\n};\n' \
		"$i" "$i" "$i" "$pc" >"$o/drivers/w$i.c"
	printf 'static void w4_poll(void)\n{\n}\nstatic int w%s_create(void)\n{\n\treturn 0;\n}\nstatic const struct mops w%s_ops = {\n\t.create = w%s_create,\n%s};\n' \
		"$i" "$i" "$i" "$([ "$i" = 4 ] && printf '\t.poll = w4_poll,\n')" >"$n/drivers/w$i.c"
done
sh "$M" -o "$TMP/m" "$o" "$n" 2>"$TMP/err"
expect_eq "two trees: exit 0" "$?" 0
expect_eq "two trees: the releases" "$(grep -E '^(From|To):' "$TMP/m" | tr -s ' ' | paste -sd' ' -)" "From: 6.1 To: 6.12"
expect_eq "two trees: the renamed header, what replaced it, how many, where" \
	"$(grep -A3 '^Header:' "$TMP/m" | tr -s ' ' | paste -sd'|' -)" \
	"Header: asm/unaligned.h|Instead: linux/unaligned.h|Count: 4 of 5|Example: drivers/d1.c:2 -> drivers/d1.c:2"
expect_no_grep "two trees: a header no file replaced the same way is no rename" "$TMP/m" "linux/gone.h"
expect_no_grep "two trees: a header still included is no rename" "$TMP/m" "linux/kept.h"
expect_no_grep "two trees: a header whose users went two ways has no entry" "$TMP/m" "linux/split"
expect_eq "two trees: a call's argument dropped, how many, where" \
	"$(grep -A3 '^Call: *mkclass' "$TMP/m" | tr -s ' ' | paste -sd'|' -)" \
	"Call: mkclass|Rewrite: drop 1|Count: 6 of 6|Example: drivers/c1.c:4 -> drivers/c1.c:4"
expect_eq "two trees: a call's argument inserted, with its text" \
	"$(grep -A3 '^Call: *lock_init' "$TMP/m" | tr -s ' ' | paste -sd'|' -)" \
	"Call: lock_init|Rewrite: insert 2 1|Count: 4 of 6|Example: drivers/c1.c:5 -> drivers/c1.c:5"
expect_eq "two trees: a function gone, the one its callers call instead" \
	"$(grep -A3 '^Call: *oldcpy' "$TMP/m" | tr -s ' ' | paste -sd'|' -)" \
	"Call: oldcpy|Rewrite: rename newcpy|Count: 5 of 6|Example: drivers/g1.c:3 -> drivers/g1.c:3"
expect_eq "two trees: assignments to a member become accessor calls" \
	"$(grep -A3 '^Assign: *vm_flags' "$TMP/m" | tr -s ' ' | paste -sd'|' -)" \
	"Assign: vm_flags &=|Rewrite: call vm_flags_clear|Count: 3 of 3|Example: drivers/m1.c:4 -> drivers/m1.c:4|--|Assign: vm_flags |=|Rewrite: call vm_flags_set|Count: 3 of 3|Example: drivers/m1.c:3 -> drivers/m1.c:3"
expect_eq "two trees: a member gone, its assignments become its setters' calls: of a call with the object alone" \
	"$(grep -A3 '^Assign: *i_ctime' "$TMP/m" | tr -s ' ' | paste -sd'|' -)" \
	"Assign: i_ctime =|Rewrite: call inode_set_ctime_to_ts|Count: 3 of 3|Example: drivers/t1.c:4 -> drivers/t1.c:4|--|Assign: i_ctime = current_time()|Rewrite: call inode_set_ctime_current|Count: 3 of 3|Example: drivers/t1.c:3 -> drivers/t1.c:3"
expect_eq "two trees: a callback's parameter made const, at its definition" \
	"$(grep -A3 '^Callback: struct class.devnode' "$TMP/m" | tr -s ' ' | paste -sd'|' -)" \
	"Callback: struct class.devnode|Rewrite: const 1|Count: 4 of 4|Example: drivers/n1.c:2 -> drivers/n1.c:2"
expect_eq "two trees: a callback's return type made const" \
	"$(grep -A3 '^Callback: struct hid_driver.report' "$TMP/m" | tr -s ' ' | paste -sd'|' -)" \
	"Callback: struct hid_driver.report|Rewrite: const 0|Count: 3 of 3|Example: drivers/n1.c:6 -> drivers/n1.c:6"
expect_eq "two trees: a callback's parameter of another struct" \
	"$(grep -A3 '^Callback: struct hid_driver.check' "$TMP/m" | tr -s ' ' | paste -sd'|' -)" \
	"Callback: struct hid_driver.check|Rewrite: retype 1 struct user_ns struct idmap|Count: 3 of 3|Example: drivers/n1.c:7 -> drivers/n1.c:7"
expect_no_grep "two trees: callbacks changed by one driver only have no entry" "$TMP/m" "hid_driver.probe"
expect_eq "two trees: a callback's parameter dropped, the others kept" \
	"$(grep -A3 '^Callback: struct inode_ops.update' "$TMP/m" | tr -s ' ' | paste -sd'|' -)" \
	"Callback: struct inode_ops.update|Rewrite: drop 2|Count: 3 of 4|Example: drivers/n1.c:28 -> drivers/n1.c:28"
expect_eq "two trees: a parameter dropped that bodies read, the local most declared in its place" \
	"$(grep -A6 '^Callback: struct bus_drv.probe' "$TMP/m" | tr -s ' ' | paste -sd'|' -)" \
	"Callback: struct bus_drv.probe|Rewrite: drop 2|Count: 5 of 5|Example: drivers/q1.c:1 -> drivers/q1.c:1|Rewrite: local 2 client_get_id 1|Count: 4 of 5|Example: drivers/q1.c:1 -> drivers/q1.c:1"
expect_eq "two trees: a function gone that an old header wraps, passing a constant" \
	"$(grep -A3 '^Call: *uses_drv' "$TMP/m" | tr -s ' ' | paste -sd'|' -)" \
	"Call: uses_drv|Rewrite: wrap is_usb 2 &usb_drv|Count: 1 of 1|Example: include/linux/wrap.h:4 -> include/linux/wrap.h:2"
expect_no_grep "two trees: a wrapper that passes a call of its own: no entry" "$TMP/m" "old_sum"
expect_eq "two trees: a function gone that two wrappers wrap, one entry per constant" \
	"$(grep -A3 '^Argument: *old_get' "$TMP/m" | tr -s ' ' | paste -sd'|' -)" \
	"Argument: old_get 3 0|Rewrite: wrap get_unmov 3 0|Count: 1 of 1|Example: include/linux/wrap.h:17 -> include/linux/wrap.h:4|--|Argument: old_get 3 __MOV|Rewrite: wrap get_mov 3 __MOV|Count: 1 of 1|Example: include/linux/wrap.h:13 -> include/linux/wrap.h:3"
expect_eq "two trees: a call whose function was renamed, the file's one call in both paired" \
	"$(grep -A3 '^Call: *cfg$' "$TMP/m" | tr -s ' ' | paste -sd'|' -)" \
	"Call: cfg|Rewrite: drop 2|Count: 3 of 3|Example: drivers/v1.c:3 -> drivers/v1.c:3"
expect_eq "two trees: a member gone whose initializers of a helper went with it" \
	"$(grep -A3 '^Callback: *struct mops' "$TMP/m" | tr -s ' ' | paste -sd'|' -)" \
	"Callback: struct mops.poll_changed|Rewrite: delete|Count: 3 of 4|Example: drivers/w1.c:10 -> drivers/w1.c:9"
expect_no_grep "two trees: a parameter of another struct whose bodies changed too has no entry" "$TMP/m" "eee_ops.get"
expect_eq "two trees: a member gone, its reads become an accessor's calls" \
	"$(grep -A3 '^Read: *struct fd' "$TMP/m" | tr -s ' ' | paste -sd'|' -)" \
	"Read: struct fd.file|Rewrite: call fd_file|Count: 6 of 6|Example: drivers/r1.c:3 -> drivers/r1.c:3"
expect_eq "two trees: a member gone, its whole value's reads and its field's, each the getter's call in-tree code made" \
	"$(grep -A3 '^Read: *struct inode' "$TMP/m" | tr -s ' ' | paste -sd'|' -)" \
	"Read: struct inode.i_ctime|Rewrite: call inode_get_ctime|Count: 3 of 3|Example: drivers/u1.c:3 -> drivers/u1.c:3|--|Read: struct inode.i_ctime.tv_sec|Rewrite: call inode_get_ctime_sec|Count: 3 of 3|Example: drivers/u1.c:5 -> drivers/u1.c:4"
expect_eq "two trees: a name whose users added its header's #include" \
	"$(grep -A3 '^Include:' "$TMP/m" | tr -s ' ' | paste -sd'|' -)" \
	"Include: reg_alg|Rewrite: include crypto/algapi.h|Count: 3 of 3|Example: drivers/i1.c:5 -> drivers/i1.c:2|--|Include: struct ring|Rewrite: include linux/ring.h|Count: 3 of 3|Example: drivers/i1.c:2 -> drivers/i1.c:3"
expect_eq "two trees: a flag gone, dropped from what it was OR-ed with (0 where alone)" \
	"$(grep -A3 '^Call: *SPREAD' "$TMP/m" | tr -s ' ' | paste -sd'|' -)" \
	"Call: SPREAD|Rewrite: omit|Count: 3 of 3|Example: drivers/k1.c:4 -> drivers/k1.c:3"
expect_eq "two trees: an argument passed instead of another, keyed by the one it replaces" \
	"$(grep -A3 '^Argument: *prep' "$TMP/m" | tr -s ' ' | paste -sd'|' -)" \
	"Argument: prep 1 &init_ns|Rewrite: replace &nop_idmap|Count: 3 of 4|Example: drivers/p1.c:3 -> drivers/p1.c:3"
expect_eq "two trees: no single rewrite: the two most common" \
	"$(grep -A6 '^Call: *split' "$TMP/m" | tr -s ' ' | paste -sd'|' -)" \
	"Call: split|Rewrite: drop 1|Count: 3 of 6|Example: drivers/c1.c:5 -> drivers/c1.c:5|Rewrite: drop 2|Count: 3 of 6|Example: drivers/c4.c:5 -> drivers/c4.c:5"

# the same trees named as unpacked from Debian's linux-source-X.Y, without
# their Makefiles
mv "$o" "$TMP/linux-source-6.1" && mv "$n" "$TMP/linux-source-6.12"
rm "$TMP/linux-source-6.1/Makefile" "$TMP/linux-source-6.12/Makefile"
sh "$M" "$TMP/linux-source-6.1" "$TMP/linux-source-6.12" >"$TMP/m2" 2>"$TMP/err"
expect_eq "linux-source-X.Y trees: exit 0, the release from the name" "$?:$(grep '^To:' "$TMP/m2" | tr -s ' ')" "0:To: 6.12"

# bad input
sh "$M" "$TMP/nothing" "$TMP/linux-source-6.12" >"$TMP/out" 2>"$TMP/err"
expect_eq "not a tree: exit 2" "$?" 2
expect_grep "not a tree: says which" "$TMP/err" "$TMP/nothing: not a kernel source tree"
mkdir -p "$TMP/noname/include/linux"
sh "$M" "$TMP/noname" "$TMP/linux-source-6.12" >"$TMP/out" 2>"$TMP/err"
expect_eq "no release: exit 2" "$?" 2
expect_grep "no release: says so" "$TMP/err" "$TMP/noname: no release"
sh "$M" "$TMP/linux-source-6.1" >"$TMP/out" 2>"$TMP/err"
expect_eq "one tree: exit 2, usage" "$?:$(cat "$TMP/err")" "2:migrations.sh: usage: migrations.sh [-o FILE] OLD-SRC NEW-SRC"

# the shipped file: Debian's 6.1 and 6.12, in the format of
# ksunset.migrations(5)
S="$TOP/share/migrations/6.1-6.12.migrations"
expect_eq "shipped: its releases" "$(grep -E '^(From|To):' "$S" | tr -s ' ' | paste -sd' ' -)" "From: 6.1 To: 6.12"
expect_grep "shipped: <asm/unaligned.h> became <linux/unaligned.h> in-tree" "$S" "Header:  asm/unaligned.h
Instead: linux/unaligned.h"
expect_grep "shipped: class_create() lost its first argument in-tree" "$S" "Call:    class_create
Rewrite: drop 1"
expect_eq "shipped: every entry has its fields, each well formed" "$(awk '
	/^Header:  [^ ]+$/ { h++; next } /^Instead: [^ ]+$/ { i++; next }
	/^Call:    [A-Za-z_][A-Za-z0-9_]*$/ { k++; next }
	/^Assign:  [A-Za-z_][A-Za-z0-9_]* ([|&]?=|= [A-Za-z_][A-Za-z0-9_]*\(\))$/ { k++; next }
	/^Callback: +(struct|union) [A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*$/ { k++; next }
	/^Read: +(struct|union) [A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/ { k++; next }
	/^Include: (struct )?[A-Za-z_][A-Za-z0-9_]*$/ { k++; next }
	/^Argument: [A-Za-z_][A-Za-z0-9_]* [1-9][0-9]* [^ ]+$/ { k++; next }
	/^Rewrite: (drop [0-9]+|insert [0-9]+ .+|(rename|call) [A-Za-z_][A-Za-z0-9_]*|const [0-9]+|retype [0-9]+ (struct|union|enum) [A-Za-z_][A-Za-z0-9_]* (struct|union|enum) [A-Za-z_][A-Za-z0-9_]*|include [^ <>"]+|delete|omit|replace [^ ]+|local [0-9]+ [A-Za-z_][A-Za-z0-9_]* [0-9]+|wrap [A-Za-z_][A-Za-z0-9_]* [0-9]+ [^ ]+)$/ { r++; next }
	/^Count:   [0-9]+ of [0-9]+$/ { c++; next } /^Example: [^ :]+:[0-9]+ -> [^ :]+:[0-9]+$/ { e++; next }
	/^(#|From:|To:|$)/ { next } { bad++ }
	END { print (h == i && i + r == c && c == e && h > 0 && k > 0 && r >= k && !bad) ? "ok" : "bad " h " " i " " k " " r " " c " " e " " bad }' "$S")" ok
