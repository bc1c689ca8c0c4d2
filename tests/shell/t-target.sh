#!/bin/sh
# check --target: modules built for Debian 12's 6.1 with the plugin and
# its api argument (and the schedule that ksunset diff writes for 6.1 ->
# 6.12), forecast on the 6.12 headers of bookworm-backports: which imports
# 6.12 lacks, whether a rebuild is enough, and every break of the build
# there, of each kind, at its line, which the real 6.12 build confirms.
# Also modules of one package checked together, a module without shape
# records, a target whose Kbuild cannot compile the probe (Debian 13's 7.x
# headers want gcc-14), a Module.symvers target (no headers: remedy
# unknown, one note), namespace verdicts, and bad --target input. Skipped,
# saying so, when the Debian archive cannot be reached.
. "$(dirname "$0")/lib.sh"
PLUGIN=${PLUGIN:-$TOP/build/ksunset.so}
LC_ALL=C
export LC_ALL

# --- bad --target input: one error naming the file, exit 2 ----------------
printf '0x1\tkfree\tvmlinux\tEXPORT_SYMBOL\t\nnot a row\n' >"$TMP/bad.symvers"
for c in "bad.symvers|$TMP/bad.symvers:2: error: expected CRC, symbol, module, export type and namespace separated by tabs: 'not a row'" \
	"nothing|$TMP/nothing: error: cannot read: No such file or directory" \
	".|$TMP/.: error: a directory without a Module.symvers"; do
	arg=$TMP/${c%%|*} want=${c#*|}
	"$KSUNSET" check --target "$arg" "$TOP/tests/shell/lib.sh" >"$TMP/out" 2>"$TMP/err"
	expect_eq "bad --target ${c%%|*}: exit 2" "$?" 2
	expect_grep "bad --target ${c%%|*}: says why" "$TMP/err" "$want"
	expect_eq "bad --target ${c%%|*}: one error, no report" "$(grep -c ': error:' "$TMP/err") $(wc -c <"$TMP/out")" "1 0"
done
"$KSUNSET" check --target-release 6.12 "$TOP/tests/shell/lib.sh" >/dev/null 2>"$TMP/err"
expect_eq "--target-release without --target: exit 2" "$?" 2
expect_grep "--target-release without --target: says so" "$TMP/err" "--target-release needs --target"
"$KSUNSET" check --target "$TMP/bad.symvers" --target "$TMP/bad.symvers" "$TOP/tests/shell/lib.sh" >"$TMP/out" 2>"$TMP/err"
expect_eq "the same --target twice: exit 2" "$?" 2
expect_grep "the same --target twice: said" "$TMP/err" "--target '$TMP/bad.symvers' given twice"
"$KSUNSET" check --target "$TMP/a.symvers" --target "$TMP/b.symvers" --target-release 6.12 "$TOP/tests/shell/lib.sh" >"$TMP/out" 2>"$TMP/err"
expect_eq "--target-release with two targets: exit 2" "$?" 2
expect_grep "--target-release with two targets: says so" "$TMP/err" "--target-release names one target's release"
"$KSUNSET" check --target "$TMP/." --target "$TMP/bad.symvers" "$TOP/tests/shell/lib.sh" >"$TMP/out" 2>"$TMP/err"
expect_eq "two targets, the first unusable: exit 2" "$?" 2
expect_grep "two targets, the first unusable: says why" "$TMP/err" "$TMP/.: error: a directory without a Module.symvers"

K=$(kdir)
[ -n "$K" ] || { fail "no Debian kernel headers in /usr/src (scripts/install-deps.sh installs them)"; exit 1; }
H=$(fetch_headers bookworm-backports 'linux-headers-6\.12\.[0-9]+\+deb12-amd64')
rc=$?
if [ "$rc" -ne 0 ]; then
	skip "cannot fetch bookworm-backports' 6.12 headers (status $rc): $(tail -1 "$TMP/fetch.log")"
	exit 0
fi
old=$(basename "$K" | sed 's/^linux-headers-//') new=$(basename "$H" | sed 's/^linux-headers-//')
# the header scan's cache, ours alone (fetch-debian.sh already has its folder)
KSUNSET_CACHE=$TMP/cache
export KSUNSET_CACHE

# The schedule of what 6.12 dropped: the plugin records where the module uses it.
"$KSUNSET" diff "$K" "$H" --schedule-out "$TMP/next.schedule" >/dev/null 2>&1
expect_eq "diff $old -> $new --schedule-out: exit 0" "$?" 0
API="-fplugin=$PLUGIN -fplugin-arg-ksunset-schedule=$TMP/next.schedule -fplugin-arg-ksunset-api"
d=$TMP/forecast
if ! KB_KDIR=$K kbuild "$TOP/tests/kbuild/forecast" "$d" KCFLAGS="$API"; then
	fail "forecast: build against $old"
	tail -20 "$d.log" | sed 's/^/  | /'
	exit 1
fi
pass "forecast: builds against $old with the plugin, api and the diff's schedule"

# --- a rebuild is enough: every shape the module depends on matches -------
"$KSUNSET" check --target "$H" "$d/forecast.ko" >"$TMP/out" 2>"$TMP/err"
expect_eq "check --target $new: exit 1 (the module will not load there)" "$?" 1
grep '^ERROR' "$TMP/out" | sed "s|$d/||" >"$TMP/got"
cat >"$TMP/want" <<EOT
ERROR: ksunset: "current_task" [forecast.ko] is not exported by the target kernel $new: a rebuild against its headers is enough (every use compiles there: 'current' as the source writes it)
ERROR: ksunset: "kmalloc_trace" [forecast.ko] is not exported by the target kernel $new: a rebuild against its headers is enough (every use compiles there: 'kmalloc' as the source writes it)
ERROR: ksunset: "pwm_get" [forecast.ko] is in namespace PWM in the target kernel $new: a rebuild against its headers is enough (the target's headers import PWM)
ERROR: ksunset: "pwm_put" [forecast.ko] is in namespace PWM in the target kernel $new: a rebuild against its headers is enough (the target's headers import PWM)
ERROR: ksunset: "vmalloc" [forecast.ko] is not exported by the target kernel $new: a rebuild against its headers is enough (every use compiles there: 'vmalloc' as the source writes it)
EOT
expect_file_eq "check --target $new: each import, a rebuild enough (an object-like macro, the module's own macro in its header, a namespace the headers import)" "$TMP/got" "$TMP/want"
expect_grep "check --target: the outlook" "$TMP/out" \
	"ksunset: $d/forecast.ko on $new: builds and loads there once rebuilt (5 of its imports are not exported there as built)"
expect_grep "check --target: summary" "$TMP/err" "1 module checked: 5 errors, 0 warnings"
expect_eq "the probe is cached" "$(find "$TMP/cache/probe" -name '*.probe' | wc -l)" 1
"$KSUNSET" check --target "$H" "$d/forecast.ko" 2>/dev/null | grep '^ERROR' | sed "s|$d/||" >"$TMP/got"
expect_file_eq "from the cache: the same verdicts" "$TMP/got" "$TMP/want"
"$KSUNSET" check --target "$H" --format json "$d/forecast.ko" >"$TMP/json" 2>/dev/null
python3 - "$TMP/json" >"$TMP/got" <<'EOT'
import json, sys
doc = json.load(open(sys.argv[1]))
for f in doc["findings"]:
    print(f["symbol"], f["target_status"], f["remedy"], ",".join(f["written_as"]),
          [l.get("written_as") for l in f["locations"]], f["severity"])
for m in doc["modules"]:
    print(m["outlook"], m["places"])
EOT
cat >"$TMP/want" <<'EOT'
current_task missing rebuild current ['current'] error
kmalloc_trace missing rebuild kmalloc ['kmalloc'] error
pwm_get namespace rebuild pwm_get ['pwm_get'] error
pwm_put namespace rebuild pwm_put ['pwm_put'] error
vmalloc missing rebuild vmalloc ['vmalloc'] error
builds-and-loads 0
EOT
expect_file_eq "check --target --format json: remedy, written_as per location, the module's outlook" "$TMP/got" "$TMP/want"
"$KSUNSET" check --target "$K" "$d/forecast.ko" >"$TMP/out" 2>"$TMP/err"
expect_eq "check --target $old (its own kernel): exit 0" "$?" 0
expect_eq "check --target $old: only the outlook" "$(cat "$TMP/out")" \
	"ksunset: $d/forecast.ko on $old: builds and loads there"

# --- a module already written for the target: its #if takes another branch there
g=$TMP/guard
if ! KB_KDIR=$K kbuild "$TOP/tests/kbuild/guard" "$g" KCFLAGS="$API"; then
	fail "guard: build against $old"
else
	readelf -p .note.ksunset "$g/guard.ko" >"$TMP/notes" 2>/dev/null
	expect_grep "guard: the branch's guard record" "$TMP/notes" \
		"guard^I$g/guard.c^I18^I18^Ikernel^I(LINUX_VERSION_CODE < KERNEL_VERSION(6, 8, 0))"
	expect_grep "guard: the callback spelled with the module's name for 6.1's type: a guard of its line" \
		"$TMP/notes" "guard^I$g/guard.c^I39^I39^Ikernel^I((LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)))"
	"$KSUNSET" check --target "$H" "$g/guard.ko" >"$TMP/out" 2>"$TMP/err"
	expect_eq "guard on $new: an unknown outlook is a warning: exit 0" "$?" 0
	expect_eq "guard on $new: no break where the branch is not compiled there" \
		"$(grep -c 'ksunset-build' "$TMP/out")" 0
	expect_eq "guard on $new: the outlook is unknown, and why" "$(sed "s|$g/||g" "$TMP/out")" \
		"WARNING: ksunset: guard.ko on $new: loads as built; whether it builds there is unknown (the target does not compile guard.c:18, which needs (LINUX_VERSION_CODE < KERNEL_VERSION(6, 8, 0)), but another branch of that #if, which this build did not compile)"
	expect_grep "guard on $new: the unknown outlook counted" "$TMP/err" "1 module checked: 0 errors, 1 warning"
	"$KSUNSET" check --strict --target "$H" "$g/guard.ko" >"$TMP/out" 2>"$TMP/err"
	expect_eq "guard on $new --strict: an unknown outlook is an error: exit 1" "$?" 1
	expect_grep "guard on $new --strict: said as an error" "$TMP/out" "ERROR: ksunset: $g/guard.ko on $new: loads as built; whether it builds there is unknown"
	"$KSUNSET" check --strict --target "$H" --format sarif "$g/guard.ko" 2>/dev/null |
		python3 -c 'import json,sys; print([(r["ruleId"], r["level"]) for r in json.load(sys.stdin)["runs"][0]["results"]])' >"$TMP/got"
	expect_eq "guard on $new --strict: sarif: the outlook a result of its own" "$(cat "$TMP/got")" \
		"[('ksunset/outlook-unknown', 'error')]"
	"$KSUNSET" check --target "$H" --format json "$g/guard.ko" 2>/dev/null |
		python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["modules"][0]["severity"], d["summary"]["warnings"])' >"$TMP/got"
	expect_eq "guard on $new: json: the outlook's severity, counted" "$(cat "$TMP/got")" "warning 1"
	"$KSUNSET" check --target "$K" "$g/guard.ko" >"$TMP/out" 2>"$TMP/err"
	expect_eq "guard on $old, the branch it took: builds" "$(cat "$TMP/out")" \
		"ksunset: $g/guard.ko on $old: builds and loads there"
fi

# --- every kind of break, at its line -----------------------------------
b=$TMP/breaks
if ! KB_KDIR=$K kbuild "$TOP/tests/kbuild/breaks" "$b" KCFLAGS="$API"; then
	fail "breaks: build against $old"
	tail -20 "$b.log" | sed 's/^/  | /'
	exit 1
fi
pass "breaks: builds against $old with the plugin and api"
"$KSUNSET" check --target "$H" --format json "$b/breaks.ko" >"$TMP/json" 2>"$TMP/err"
expect_eq "breaks: check --target $new: exit 1" "$?" 1
python3 - "$TMP/json" "$b/" >"$TMP/got" <<'EOT'
import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    if f["rule"].startswith("ksunset/build-"):
        assert f["rule"] == "ksunset/build-" + f["kind"], f["rule"]
        for l in f["locations"]:
            print(f["kind"], f["symbol"], l["file"].replace(sys.argv[2], "") + ":" + str(l["line"]))
EOT
sed -n 's/^ \* break: //p' "$TOP"/tests/kbuild/breaks/*.c | sort >"$TMP/breaklines"
sort -o "$TMP/got" "$TMP/got"
expect_file_eq "breaks: every kind of break at its line (the sources' break: lines)" "$TMP/got" "$TMP/breaklines"
expect_eq "breaks: eleven kinds" "$(cut -d' ' -f1 "$TMP/breaklines" | sort -u | wc -l)" 11
python3 - "$TMP/json" >"$TMP/got" <<'EOT'
import json, sys
doc = json.load(open(sys.argv[1]))
for f in doc["findings"]:
    if f["symbol"] in ("generic_fillattr", "DEFINE_SEMAPHORE", "vzalloc") and "kind" in f:
        print(f["kind"], f["old"], "|", f["new"], "|", f["header"])
        print(" ", f["locations"][0].get("compiler"))
    if f["symbol"] == "__class_create":
        print(f["remedy"], f["remedy_why"])
for m in doc["modules"]:
    print(m["outlook"], m["places"], m["message"])
EOT
cat >"$TMP/want" <<'EOT'
source-change its use does not compile there
not-included void *(long unsigned int) | None | linux/vmalloc.h
  implicit declaration of function 'vzalloc'; did you mean 'kzalloc'? [-Werror=implicit-function-declaration]
arity (name) | (_name, _n) | None
  None
prototype void(struct user_namespace *, struct inode *, struct kstat *) | void(struct mnt_idmap *, u32, struct inode *, struct kstat *) | None
  passing argument 1 of 'generic_fillattr' from incompatible pointer type [-Werror=incompatible-pointer-types]
needs-source-changes 12 needs source changes: 12 places (11 kinds: gone, not-included, header-gone, arity, prototype, member-gone, member-type, callback-prototype, incomplete, clash, read-only)
EOT
expect_file_eq "breaks: json: old and new shapes, the header, the compiler's words, the outlook" "$TMP/got" "$TMP/want"
"$KSUNSET" check --target "$H" "$b/breaks.ko" >"$TMP/out" 2>/dev/null
expect_grep "breaks: text: a break with its shapes" "$TMP/out" \
	"ERROR: ksunset: \"DEFINE_SEMAPHORE\" [$b/breaks.ko] does not build on the target kernel $new (arity): takes other arguments: 'DEFINE_SEMAPHORE(name)' where the module was built, 'DEFINE_SEMAPHORE(_name, _n)' there"
expect_grep "breaks: text: the location, GCC's way" "$TMP/out" \
	"$b/main.c:53:23: error: use of 'struct vm_area_struct.vm_flags' in 'breaks_vma' (read-only on $new) [ksunset-build-read-only]"
expect_grep "breaks: text: the compiler's words" "$TMP/out" \
	"$b/main.c:53:23: note: the compiler says: assignment of read-only member 'vm_flags'"
# what in-tree code wrote instead, from the shipped 6.1 -> 6.12 migrations
expect_grep "breaks: text: what in-tree code includes instead, how many, where" "$TMP/out" \
	"(header-gone): no such header there; <linux/unaligned.h> has its name; in-tree code includes <linux/unaligned.h> instead (718 of the 726 files that included <asm/unaligned.h> in 6.1; e.g. arch/alpha/kernel/traps.c:25 in 6.12)"
expect_grep "breaks: text: a note at the header's name" "$TMP/out" \
	"$b/main.c:18:11: note: in-tree code includes <linux/unaligned.h> instead"
expect_grep "breaks: text: GCC's parseable fix-it" "$TMP/out" \
	"fix-it:\"$b/main.c\":{18:11-18:26}:\"linux/unaligned.h\""
expect_eq "breaks: json: the fix" "$(python3 -c '
import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    if f.get("kind") in ("header-gone", "callback-prototype", "member-gone", "not-included", "incomplete") or \
            f["symbol"] in ("DEFINE_SEMAPHORE", "class_create", "strlcpy", "struct vm_area_struct.vm_flags"):
        x = f["fix"]
        print(x["before"], "->", x["after"], x["single"], x["count"], x["of"], x["from"], x["to"],
              x["example"], [(r["op"], r["argument"], r["text"]) for r in x["rewrites"]])
    elif "kind" in f and f["fix"] is not None:
        print("a fix where none is known:", f["symbol"])' "$TMP/json")" \
	"strlcpy -> strscpy True 182 262 6.1 6.12 arch/arm/kernel/atags_parse.c:130 [('rename', None, 'strscpy')]
None -> #include <linux/vmalloc.h> True 12 12 6.1 6.12 arch/s390/kernel/ipl.c:23 [('include', None, 'linux/vmalloc.h')]
<asm/unaligned.h> -> <linux/unaligned.h> True 718 726 6.1 6.12 arch/alpha/kernel/traps.c:25 [('header', None, 'linux/unaligned.h')]
DEFINE_SEMAPHORE(breaks_lock) -> DEFINE_SEMAPHORE(breaks_lock, 1) True 9 9 6.1 6.12 arch/mips/cavium-octeon/setup.c:75 [('insert', 2, '1')]
class_create(THIS_MODULE, breaks_name) -> class_create(breaks_name) True 20 20 6.1 6.12 arch/powerpc/platforms/book3s/vas-api.c:628 [('drop', 1, None)]
inode->i_mtime.tv_sec -> inode_get_mtime_sec(inode) True 30 32 6.1 6.12 fs/affs/inode.c:186 [('call', None, 'inode_get_mtime_sec')]
static int breaks_getattr(struct user_namespace *ns, const struct path *path, -> static int breaks_getattr(struct mnt_idmap *ns, const struct path *path, True 36 36 6.1 6.12 fs/9p/vfs_inode.c:975 [('retype', 1, 'struct mnt_idmap')]
None -> #include <linux/workqueue_types.h> True 0 0 6.1 6.12 None [('include', None, 'linux/workqueue_types.h')]
vma->vm_flags |= VM_IO; -> vm_flags_set(vma, VM_IO); True 93 113 6.1 6.12 arch/powerpc/kvm/book3s_xive_native.c:327 [('call', None, 'vm_flags_set')]"
expect_grep "breaks: text: an argument dropped, said with its count" "$TMP/out" \
	"; in-tree code drops argument 1 of class_create() (20 of the 20 in-tree calls that changed from 6.1 to 6.12; e.g. arch/powerpc/platforms/book3s/vas-api.c:628 in 6.12)"
expect_grep "breaks: text: an argument inserted, its fix-it" "$TMP/out" \
	"fix-it:\"$b/main.c\":{21:36-21:36}:\", 1\""
expect_grep "breaks: text: an argument dropped, its fix-it" "$TMP/out" \
	"fix-it:\"$b/main.c\":{59:30-59:43}:\"\""
"$KSUNSET" check --target "$H" --format sarif "$b/breaks.ko" >"$TMP/breaks.sarif" 2>/dev/null
expect_eq "breaks: sarif: the fixes, the header's name, the call's argument or name, a field's read, the assignment, the callback's parameter replaced, an #include inserted" "$(python3 -c '
import json, sys
for r in json.load(open(sys.argv[1]))["runs"][0]["results"]:
    for f in r.get("fixes", []):
        for c in f["artifactChanges"]:
            for x in c["replacements"]:
                d = x["deletedRegion"]
                print(r["ruleId"], c["artifactLocation"]["uri"].rsplit("/", 1)[1], d["startLine"],
                      d["startColumn"], d["endColumn"], x["insertedContent"]["text"])' "$TMP/breaks.sarif")" \
	"ksunset/build-gone main.c 58 2 9 strscpy
ksunset/build-not-included buffer.c 7 1 1 #include <linux/vmalloc.h>

ksunset/build-header-gone main.c 18 11 26 linux/unaligned.h
ksunset/build-arity main.c 21 36 36 , 1
ksunset/build-arity main.c 59 30 43 
ksunset/build-member-gone main.c 39 9 30 inode_get_mtime_sec(inode)
ksunset/build-callback-prototype main.c 25 34 48 mnt_idmap
ksunset/build-incomplete helpers.c 9 1 1 #include <linux/workqueue_types.h>

ksunset/build-read-only main.c 53 2 25 vm_flags_set(vma, VM_IO);"
# a migrations file that leads to another release: said, not used
printf 'From: 6.1\nTo: 7.3\n' >"$TMP/other.migrations"
"$KSUNSET" check --target "$H" --migrations "$TMP/other.migrations" "$b/breaks.ko" >"$TMP/out" 2>"$TMP/err"
expect_eq "--migrations to another release: exit 1, as without it" "$?" 1
expect_grep "--migrations to another release: said" "$TMP/err" \
	"$TMP/other.migrations: note: migrations from 6.1 to 7.3, not to the target's 6.12: not used"
expect_no_grep "--migrations to another release: not used" "$TMP/out" "in-tree code"
# one that starts from another release than the module was built for
printf 'From: 6.2\nTo: 6.12\n\nHeader: asm/unaligned.h\nInstead: linux/unaligned.h\nCount: 3 of 3\nExample: a.c:1 -> a.c:1\n' \
	>"$TMP/from.migrations"
"$KSUNSET" check --target "$H" --migrations "$TMP/from.migrations" "$b/breaks.ko" >"$TMP/out" 2>"$TMP/err"
expect_eq "--migrations from another release: exit 1, as without it" "$?" 1
expect_grep "--migrations from another release: said" "$TMP/err" \
	"$TMP/from.migrations: note: migrations from 6.2, not from 6.1, which $b/breaks.ko was built for: not used for it"
expect_no_grep "--migrations from another release: not used" "$TMP/out" "in-tree code"
printf 'From: 6.1\nTo: 6.12\n\nHeader: asm/unaligned.h\nInstead: linux/unaligned.h\nCount: many\n' >"$TMP/bad.migrations"
"$KSUNSET" check --target "$H" --migrations "$TMP/bad.migrations" "$b/breaks.ko" >"$TMP/out" 2>"$TMP/err"
expect_eq "--migrations malformed: exit 2" "$?" 2
expect_grep "--migrations malformed: the file and line" "$TMP/err" "$TMP/bad.migrations:6: error: expected 'N of M' (M as in the entry's first Count:), not 'many'"
"$KSUNSET" check --migrations "$TMP/bad.migrations" "$b/breaks.ko" >"$TMP/out" 2>"$TMP/err"
expect_eq "--migrations without --target: exit 2" "$?:$(grep -c 'migrations needs --target' "$TMP/err")" "2:1"
"$KSUNSET" check --target "$H" --format sarif "$b/breaks.ko" 2>/dev/null | python3 -c '
import json, sys
run = json.load(sys.stdin)["runs"][0]
rules = {r["id"] for r in run["tool"]["driver"]["rules"]}
kinds = set()
for r in run["results"]:
    assert r["ruleId"] in rules, r["ruleId"]
    if r["ruleId"].startswith("ksunset/build-"):
        kinds.add(r["ruleId"])
print(len(kinds), len([i for i in rules if i.startswith("ksunset/build-")]))' >"$TMP/got"
expect_eq "breaks: sarif: one rule per kind, each kind's results under its rule" "$(cat "$TMP/got")" "11 11"

# The real 6.12 build fails on every line the forecast names: as it is
# (the gone header stops main.c), and with that header's namesake.
r12=$TMP/breaks-6.12
cp -r "$TOP/tests/kbuild/breaks" "$r12"
LC_MESSAGES=C make -k -C "$H" M="$r12" modules >"$r12.log" 2>&1
expect_eq "breaks: the real build against $new fails" "$?" 2
# the fix-its applied, as an editor would (on each line, right to left);
# the header's alone first, so that the build goes on to the other breaks
"$KSUNSET" check --target "$H" "$b/breaks.ko" 2>/dev/null >"$TMP/fixits"
apply_fixits() {
	python3 -c '
import re, sys
src = open(sys.argv[1]).read().split("\n")
its = []
for l in open(sys.argv[3]):
    m = re.match(r"fix-it:\"(.*)\":\{(\d+):(\d+)-\d+:(\d+)\}:\"(.*)\"$", l.rstrip("\n"))
    if m and m.group(1).endswith("/main.c") and re.search(sys.argv[4], m.group(5)):
        its.append((int(m.group(2)), int(m.group(3)), int(m.group(4)), m.group(5)))
for n, a, b, text in sorted(its, reverse=True):
    src[n - 1] = src[n - 1][:a - 1] + text + src[n - 1][b - 1:]
open(sys.argv[2], "w").write("\n".join(src))' "$TOP/tests/kbuild/breaks/main.c" "$1/main.c" "$TMP/fixits" "$2"
}
apply_fixits "$r12" '[.]h$'
expect_grep "breaks: the fix-it applied" "$r12/main.c" "#include <linux/unaligned.h>"
LC_MESSAGES=C make -k -C "$H" M="$r12" modules >"$r12.fixed.log" 2>&1
cat "$r12.fixed.log" >>"$r12.log"
expect_no_grep "breaks: the fix-it applied, its line compiles on $new" "$r12.fixed.log" "main.c:18:"
expect_grep "breaks: the fix-it applied, the build goes on to the other breaks" "$r12.fixed.log" "main.c:21:"
r12b=$TMP/breaks-6.12-fixits
cp -r "$TOP/tests/kbuild/breaks" "$r12b"
apply_fixits "$r12b" ''
LC_MESSAGES=C make -k -C "$H" M="$r12b" modules >"$r12b.log" 2>&1
expect_eq "breaks: every fix-it applied, its lines compile on $new (the others still fail)" \
	"$(grep -cE "main.c:(18|21|53|58|59):[0-9]+: (fatal )?error" "$r12b.log"):$(grep -q "main.c:29:[0-9]*: error" "$r12b.log" && echo fails)" "0:fails"
sed -n "s|^$r12/\([a-z]*\.c:[0-9]*\):[0-9]*: \(fatal \)\{0,1\}error:.*|\1|p" "$r12.log" | sort -u >"$TMP/errlines"
missed=""
for at in $(sed 's/.* //' "$TMP/breaklines"); do
	grep -qx "$at" "$TMP/errlines" || missed="$missed $at"
done
expect_eq "breaks: every forecast line is an error line of the real $new build" "$missed" ""

# --- modules no one tuned the forecast on: one per class it once judged
# wrong, each "forecast:" line of their sources checked, and the lines the
# forecast names checked against the real build on the target
cl=$TMP/classes
if ! KB_KDIR=$K kbuild "$TOP/tests/kbuild/classes" "$cl" KCFLAGS="$API"; then
	fail "classes: build against $old"
	tail -20 "$cl.log" | sed 's/^/  | /'
else
	"$KSUNSET" check --target "$H" --format json "$cl"/*.ko >"$TMP/classes.json" 2>"$TMP/err"
	cr=$TMP/classes-real
	cp -r "$TOP/tests/kbuild/classes" "$cr"
	LC_MESSAGES=C make -k -C "$H" M="$cr" modules >"$cr.log" 2>&1
	sed "s|$cr/|$cl/|g" "$cr.log" >"$TMP/classes-errors.log"
	python3 "$TOP/tests/shell/forecast-expect.py" "$TMP/classes.json" "$cl" "$TMP/classes-errors.log" \
		>"$TMP/classes.out" 2>&1
	expect_eq "classes: the expectations could be read" "$?" 0
	while IFS= read -r l; do
		case $l in
		"PASS "*) pass "classes: ${l#PASS }" ;;
		*) fail "classes: ${l#FAIL }" ;;
		esac
	done <"$TMP/classes.out"
	"$KSUNSET" check --target "$H" "$cl/written.ko" >"$TMP/out" 2>&1
	expect_grep "classes: one import not exported as built, said in the singular" "$TMP/out" \
		"written.ko on $new: builds and loads there once rebuilt (1 of its imports is not exported there as built)"
	# --- which kernels: each target forecast, one line per module --------
	"$KSUNSET" check --target "$K" --target "$H" "$cl/kquote.ko" "$cl/cfginc.ko" "$cl/litline.ko" >"$TMP/out" 2>&1
	expect_eq "two targets: exit 1 (one does not build on one)" "$?" 1
	expect_grep "two targets: each target's outlook" "$TMP/out" "kquote.ko on $old: builds and loads there"
	expect_grep "two targets: each target's outlook (2)" "$TMP/out" "kquote.ko on $new: needs source changes: 1 place"
	expect_grep "two targets: one line per module" "$TMP/out" \
		"ksunset: $cl/kquote.ko: builds and loads on $old; needs source changes on $new (1 place: gone)"
	expect_grep "two targets: the places not judged, counted" "$TMP/out" \
		"ksunset: $cl/cfginc.ko: builds and loads on $old; needs source changes on $new (2 places: gone, member-gone; 1 more unknown)"
	expect_grep "two targets: unknown on one" "$TMP/out" \
		"ksunset: $cl/litline.ko: builds and loads on $old; unknown on $new"
	"$KSUNSET" check --target "$H" --target "$K" --format json "$cl/kquote.ko" >"$TMP/two.json" 2>/dev/null
	expect_eq "two targets, json: one outlook per module and target, in the order given" "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join("%s:%s" % (m["target"], m["outlook"]) for m in d["modules"]),
      sorted(set(f["target_release"] for f in d["findings"] if "kind" in f)))' "$TMP/two.json")" \
		"$new:needs-source-changes $old:builds-and-loads ['$new']"
	"$KSUNSET" check --target "$K" --target "$H" --format sarif "$cl/litline.ko" "$cl/kquote.ko" >"$TMP/two.sarif" 2>/dev/null
	expect_eq "two targets, sarif: no two results share a fingerprint" "$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]["results"]
fp = [list(x["partialFingerprints"].values())[0] for x in r]
print(len(fp) > 0 and len(fp) == len(set(fp)), any(f.endswith("@'"$new"'") for f in fp))' "$TMP/two.sarif")" "True True"
fi

# --- ksunset fix: a patch that keeps both kernels building ---------------
# tests/kbuild/DIR patched with PATCH applies and builds against $old and
# $new (LABEL: the tests' names)
patched_builds() {	# DIR PATCH LABEL
	for kd in "$K" "$H"; do
		p=$TMP/$1-$(basename "$kd")
		rm -rf "$p" && cp -r "$TOP/tests/kbuild/$1" "$p"
		(cd "$p" && patch -p1 <"$2") >"$TMP/out" 2>&1
		expect_eq "$3: patch -p1 applies it" "$?" 0
		LC_MESSAGES=C make -C "$kd" M="$p" modules >"$p.log" 2>&1
		expect_eq "$3: the patched module builds against $(basename "$kd" | sed 's/^linux-headers-//')" "$?" 0
	done
}
# fix_built NAME PATCH: tests/kbuild/NAME built against the older kernel
# into $TMP/NAME with the plugin, and ksunset fix's patch of NAME.ko into
# PATCH (its status in fixrc, its standard error in $TMP/err); false when
# the build fails
fix_built() {
	if ! KB_KDIR=$K kbuild "$TOP/tests/kbuild/$1" "$TMP/$1" KCFLAGS="$API"; then
		fail "$1: build against $old"
		return 1
	fi
	(cd "$TMP/$1" && "$KSUNSET" fix --target "$H" "$1.ko") >"$2" 2>"$TMP/err"
	fixrc=$?
}
fx=$TMP/fix
if ! KB_KDIR=$K kbuild "$TOP/tests/kbuild/fix" "$fx" KCFLAGS="$API"; then
	fail "fix: build against $old"
else
	(cd "$fx" && "$KSUNSET" fix --target "$H" fixhdr.ko fixcall.ko fixcb.ko fixread.ko fixinc.ko fixdel.ko fixtgt.ko fixtime.ko) >"$TMP/fix.patch" 2>"$TMP/err"
	expect_eq "fix: exit 0 (every break rewritten)" "$?" 0
	expect_grep "fix: says what it did" "$TMP/err" "ksunset: fix: 20 lines rewritten in 9 files; 0 breaks not rewritten"
	expect_grep "fix: the new header for the target's release" "$TMP/fix.patch" "+#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
+#include <linux/unaligned.h>
+#else
+#include <asm/unaligned.h>
+#endif"
	expect_grep "fix: an argument dropped, as in-tree callers did" "$TMP/fix.patch" "-	fixcall_class = class_create(THIS_MODULE, fixcall_name);
+#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
+	fixcall_class = class_create(fixcall_name);
+#else
+	fixcall_class = class_create(THIS_MODULE, fixcall_name);
+#endif"
	expect_grep "fix: a function gone, the one in-tree callers call instead" "$TMP/fix.patch" \
		"+	strscpy(fixcall_name, \"fixcall\", sizeof(fixcall_name));"
	expect_grep "fix: an argument inserted, as in-tree callers did" "$TMP/fix.patch" "+static DEFINE_SEMAPHORE(fixcall_lock, 1);"
	expect_grep "fix: an assignment to a read-only member, the accessor in-tree code calls" "$TMP/fix.patch" \
		"+	vm_flags_set(vma, VM_IO | VM_DONTEXPAND);"
	expect_grep "fix: a callback's parameter made const, at the head of its definition" "$TMP/fix.patch" \
		"-static int fixcb_match(struct device *dev, struct device_driver *drv)
+#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
+static int fixcb_match(struct device *dev, const struct device_driver *drv)
+#else"
	expect_grep "fix: a second function stored in the same member, its own head rewritten" "$TMP/fix.patch" \
		"+static int fixcb_match2(struct device *dev, const struct device_driver *drv)"
	expect_grep "fix: a callback's first parameter made const" "$TMP/fix.patch" \
		"+static int fixcb_uevent(const struct device *dev, struct kobj_uevent_env *env)"
	expect_grep "fix: of a callback's definitions in two branches, the compiled one's head" "$TMP/fix.patch" \
		"-static int fixcb_uevent2(struct device *dev, struct kobj_uevent_env *env)
+#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
+static int fixcb_uevent2(const struct device *dev, struct kobj_uevent_env *env)"
	expect_no_grep "fix: the head of the branch not compiled is left alone" "$TMP/fix.patch" \
		"+static int fixcb_uevent2(const struct device *dev, char **envp"
	expect_grep "fix: of a callback's heads in two branches before one body, the compiled one" "$TMP/fix.patch" \
		"+static char *fixcb_devnode(const struct device *dev, umode_t *mode)"
	expect_no_grep "fix: the head of the branch not compiled is left alone, before one body" "$TMP/fix.patch" \
		"+static char *fixcb_devnode(const struct device *dev, mode_t *mode)"
	expect_grep "fix: a member gone, read through the accessor in-tree code calls" "$TMP/fix.patch" \
		"-	*size = i_size_read(file_inode(f.file));
+#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
+	*size = i_size_read(file_inode(fd_file(f)));
+#else"
	expect_grep "fix: a member gone assigned the time now, the setter of it in-tree code calls" "$TMP/fix.patch" \
		"-	inode->i_ctime = current_time(inode);
+#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
+	inode_set_ctime_current(inode);
+#else"
	expect_grep "fix: the #include in-tree users added, after the file's last, for the target's release" "$TMP/fix.patch" \
		" #include <linux/netdevice.h>
+#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
+#include <crypto/algapi.h>
+#endif
+#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
+#include <net/gso.h>
+#endif"
	expect_grep "fix: a name no in-tree #include was added for, the target's header that declares it" "$TMP/fix.patch" \
		" #include \"fixtgt.h\"
+#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
+#include <net/genetlink.h>
+#endif"
	expect_eq "fix: not in the .c a struct the header it includes first names" \
		"$(grep -c '^+#include <linux/circ_buf.h>' "$TMP/fix.patch")" 1
	expect_grep "fix: a header of the module's own that includes nothing, the #include after its guard" "$TMP/fix.patch" \
		" #define FIXTGT_H
+#include <linux/version.h>
+#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
+#include <linux/circ_buf.h>
+#endif"
	"$KSUNSET" check --target "$H" --format json "$fx/fixtgt.ko" >"$TMP/tgt.json" 2>"$TMP/err"
	expect_eq "fix: a struct no in-tree #include was added for: the target's header that defines it, its basis said" "$(python3 -c '
import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    if f.get("kind"):
        x = f["fix"]
        print(f["kind"], f["symbol"], f["header"], x["after"], x["basis"], x["count"], x["example"])' "$TMP/tgt.json" | sort -u)" \
		"incomplete struct circ_buf linux/circ_buf.h #include <linux/circ_buf.h> target-headers 0 None
incomplete struct circ_buf.buf linux/circ_buf.h #include <linux/circ_buf.h> target-headers 0 None
incomplete struct circ_buf.head linux/circ_buf.h #include <linux/circ_buf.h> target-headers 0 None
incomplete struct circ_buf.tail linux/circ_buf.h #include <linux/circ_buf.h> target-headers 0 None
not-included MODULE_ALIAS_GENL_FAMILY net/genetlink.h #include <net/genetlink.h> target-headers 0 None"
	"$KSUNSET" check --target "$H" "$fx/fixtgt.ko" >"$TMP/out" 2>&1
	expect_grep "fix: the target's header to include, said as the target's, not in-tree code's" "$TMP/out" \
		"(not-included): not declared by the headers the source includes; <net/genetlink.h> declares it, to include (in-tree code shows no #include to copy)"
	expect_grep "fix: the target's header's note and fix-it" "$TMP/out" \
		"$(realpath "$fx")/fixtgt.h:6:1: note: the target's <linux/circ_buf.h> defines struct circ_buf (in-tree code shows no #include to copy)
fix-it:\"$(realpath "$fx")/fixtgt.h\":{6:1-6:1}:\"#include <linux/circ_buf.h>\\n\""
	expect_eq "fix: one #include for the names one header declares" "$(grep -c '^+#include <crypto/algapi.h>' "$TMP/fix.patch")" 1
	expect_grep "fix: a line in-tree code deleted, kept for older kernels only" "$TMP/fix.patch" \
		"-	.llseek = no_llseek,
+#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
+#else
+	.llseek = no_llseek,
+#endif"
	expect_grep "fix: a constant's initializer line deleted" "$TMP/fix.patch" "+#else
+	.class = I2C_CLASS_DDC,
+#endif"
	expect_grep "fix: a callback's return type made const" "$TMP/fix.patch" \
		"+static const __u8 *fixcb_report_fixup(struct hid_device *hdev, __u8 *rdesc, unsigned int *rsize)"
	"$KSUNSET" check --target "$H" "$fx/fixcb.ko" >"$TMP/out" 2>&1
	expect_grep "fix: a callback's note and fix-it are at its definition, not at the use" "$TMP/out" \
		"$fx/fixcb.c:10:44: note: in-tree struct bus_type.match callbacks made parameter 2 const ("
	expect_grep "fix: a callback's fix-it inserts const" "$TMP/out" \
		"fix-it:\"$fx/fixcb.c\":{10:44-10:44}:\"const \""
	# --kernel-source: the example's line quoted from the target's source
	# (a tree of its release, as Debian's linux-source-X.Y unpacks)
	ex=$(grep -A3 '^Callback: struct bus_type.match$' "$TOP/share/migrations/6.1-6.12.migrations" |
		sed -n 's/^Example: .* -> \(.*\):\([0-9]*\)$/\1 \2/p')
	ks=$TMP/linux-source-6.12
	mkdir -p "$ks/$(dirname "${ex% *}")"
	awk -v n="${ex#* }" 'BEGIN { for (i = 1; i < n; i++) print ""; print "\tstatic int in_tree_match(struct device *d, const struct device_driver *drv)  " }' \
		>"$ks/${ex% *}"
	"$KSUNSET" check --target "$H" --kernel-source "$ks" --format json "$fx/fixcb.ko" >"$TMP/ks.json" 2>"$TMP/err"
	"$KSUNSET" check --target "$H" --kernel-source "$ks" "$fx/fixcb.ko" >"$TMP/out" 2>&1
	expect_grep "--kernel-source: the in-tree example's line, quoted" "$TMP/out" \
		"e.g. ${ex% *}:${ex#* } in 6.12: \`static int in_tree_match(struct device *d, const struct device_driver *drv)\`)"
	expect_eq "--kernel-source: json: each rewrite's example_text (null where the tree has no such line)" "$(python3 -c '
import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    if f.get("fix"):
        print(f["symbol"], [r["example_text"] for r in f["fix"]["rewrites"]])' "$TMP/ks.json" | sort)" \
		"struct bus_type.match ['static int in_tree_match(struct device *d, const struct device_driver *drv)']
struct bus_type.uevent [None]
struct class.devnode [None]
struct hid_driver.report_fixup [None]"
	"$KSUNSET" check --target "$H" --kernel-source "$TMP/fix" "$fx/fixcb.ko" >"$TMP/out" 2>&1
	expect_grep "--kernel-source of no release: said, nothing quoted" "$TMP/out" \
		"$TMP/fix: note: its release is not known (no VERSION and PATCHLEVEL in its Makefile, no linux-source-X.Y name): its lines are not quoted"
	"$KSUNSET" check --target "$H" --kernel-source "$TMP/nothing" "$fx/fixcb.ko" >"$TMP/out" 2>&1
	expect_eq "--kernel-source not a directory: exit 2" "$?:$(grep -c "kernel-source '$TMP/nothing': not a directory" "$TMP/out")" "2:1"
	"$KSUNSET" check --kernel-source "$ks" "$fx/fixcb.ko" >"$TMP/out" 2>&1
	expect_eq "--kernel-source without --target: exit 2" "$?:$(grep -c 'kernel-source needs --target' "$TMP/out")" "2:1"
	"$KSUNSET" check --target "$H" "$fx/fixinc.ko" >"$TMP/out" 2>&1
	expect_grep "fix: an #include's note and fix-it, after the file's last #include" "$TMP/out" \
		"$fx/fixinc.c:9:1: note: in-tree code that names skb_gso_segment includes <net/gso.h> ("
	expect_grep "fix: an #include's fix-it inserts a line" "$TMP/out" \
		"fix-it:\"$fx/fixinc.c\":{9:1-9:1}:\"#include <crypto/algapi.h>\\n\""
	"$KSUNSET" check --target "$H" "$fx/fixdel.ko" >"$TMP/out" 2>&1
	expect_grep "fix: a line deleted: its note and fix-it" "$TMP/out" \
		"$fx/fixdel.c:10:9: note: in-tree code deletes the line that names no_llseek ("
	expect_grep "fix: a line deleted: the fix-it empties it" "$TMP/out" "fix-it:\"$fx/fixdel.c\":{10:2-10:22}:\"\""
	# fixhdr.c includes it, but after the line the patch rewrites
	expect_eq "fix: <linux/version.h> once per file, before its first #include" \
		"$(grep -c '^+#include <linux/version.h>' "$TMP/fix.patch"):$(grep -A1 '^+#include <linux/version.h>' "$TMP/fix.patch" | grep -c '^ #include <linux/device.h>')" "9:2"
	patched_builds fix "$TMP/fix.patch" fix
	(cd "$fx" && "$KSUNSET" fix --target "$H" -o "$TMP/fix2.patch" fixhdr.ko fixcall.ko fixcb.ko fixread.ko fixinc.ko fixdel.ko fixtgt.ko fixtime.ko) >"$TMP/out" 2>&1
	expect_eq "fix -o FILE: the same patch there, nothing on stdout" "$?:$(cmp -s "$TMP/fix.patch" "$TMP/fix2.patch" && echo same):$(grep -c '^+++' "$TMP/out")" "0:same:0"
	# a line changed since the build: named, not rewritten
	sed -i 's|^#include <asm/unaligned.h>|#include <asm/unaligned.h> /* moved */\n|' "$fx/fixhdr.c"
	sed -i '1i // a line more' "$fx/fixhdr.c"
	(cd "$fx" && "$KSUNSET" fix --target "$H" fixhdr.ko) >"$TMP/fix3.patch" 2>"$TMP/err"
	expect_grep "fix: a line changed since the build, named" "$TMP/fix3.patch" \
		"$fx/fixhdr.c:6: no longer includes <asm/unaligned.h> (changed since the build): not rewritten"
	expect_no_grep "fix: a line changed since the build, not rewritten" "$TMP/fix3.patch" "+++ b/fixhdr.c"
	# a call whose arguments now run over two lines: named, not rewritten
	sed -i 's|class_create(THIS_MODULE, fixcall_name)|class_create(THIS_MODULE,\n\t\t\t\t     fixcall_name)|' "$fx/fixcall.c"
	(cd "$fx" && "$KSUNSET" fix --target "$H" fixcall.ko) >"$TMP/fix3.patch" 2>"$TMP/err"
	expect_grep "fix: a call over two lines, named" "$TMP/fix3.patch" \
		"$fx/fixcall.c:35: has no call of class_create() with all its arguments (changed since the build, or a call over several lines): not rewritten"
	expect_grep "fix: the other line of the file, still rewritten" "$TMP/fix3.patch" "+static DEFINE_SEMAPHORE(fixcall_lock, 1);"
fi
# callbacks defined in another file than the table that stores them,
# declared in the module's header (an older kernel's prototype beside it),
# or declared static before the table: each definition and declaration
# rewritten, none of another kernel's, and the module builds on both
fs=$TMP/fixsplit
if fix_built fixsplit "$TMP/fixs.patch"; then
	expect_eq "fix, callbacks defined in another file: exit 0" "$fixrc" 0
	expect_grep "fix: callbacks defined elsewhere, their heads and declarations" "$TMP/err" \
		"ksunset: fix: 6 lines rewritten in 3 files; 0 breaks not rewritten"
	expect_grep "fix: a definition in another file, its head's second line" "$TMP/fixs.patch" \
		"--- a/fixsplit_fn.c"
	expect_grep "fix: the head of the compiled branch of an #if, over two lines" "$TMP/fixs.patch" \
		"-int fixsplit_uevent(struct device *dev,
+#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
+int fixsplit_uevent(const struct device *dev,"
	expect_grep "fix: the header's declaration" "$TMP/fixs.patch" \
		"+int fixsplit_uevent(const struct device *dev, struct kobj_uevent_env *env);"
	expect_grep "fix: the header's declaration over two lines" "$TMP/fixs.patch" \
		"+			  const struct device_driver *drv);"
	expect_no_grep "fix: an older kernel's prototype left alone" "$TMP/fixs.patch" \
		"-int fixsplit_uevent(struct device *dev, char **envp, int num_envp);"
	expect_grep "fix: a static declaration before the table" "$TMP/fixs.patch" \
		"+static int fixsplit_match2(struct device *dev, const struct device_driver *drv);"
	patched_builds fixsplit "$TMP/fixs.patch" fixsplit
	"$KSUNSET" check --target "$H" "$fs/fixsplit.ko" >"$TMP/fixs.out" 2>&1
	expect_grep "check: a callback's fix-it at its definition in another file" "$TMP/fixs.out" \
		"fix-it:\"$(realpath "$fs")/fixsplit_fn.c\":{9:21-9:21}:\"const \""
	expect_grep "check: a static one's at its definition in the use's file" "$TMP/fixs.out" \
		"fix-it:\"$fs/fixsplit_ops.c\":{21:48-21:48}:\"const \""
	"$KSUNSET" check --target "$H" --format json "$fs/fixsplit.ko" >"$TMP/fixs.json" 2>"$TMP/err"
	expect_eq "check: json: a callback's fix, its head in another file" "$(python3 -c '
import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    if f["symbol"] == "struct bus_type.uevent":
        print(f["fix"]["before"], "->", f["fix"]["after"])' "$TMP/fixs.json")" \
		"int fixsplit_uevent(struct device *dev, -> int fixsplit_uevent(const struct device *dev,"
fi
# members gone assigned in a chain and assigned values: with the shipped
# migrations, the chain's inner link becomes the outer one's value and
# each assignment of a value a setter's call; with a migrations file of the
# test's own that has no rewrite of i_mtime's assignments, the chain's line
# is not rewritten, since its inner link's rewrite leaves i_mtime on it
fc=$TMP/fixchain
if fix_built fixchain "$TMP/fixc.patch"; then
	expect_eq "fix, a chain whose links both have a rewrite: exit 0" "$fixrc" 0
	expect_grep "fix: a chain of two members gone, the inner assignment the outer one's value" "$TMP/fixc.patch" \
		"-	dir->i_mtime = dir->i_ctime = current_time(dir);
+#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
+	inode_set_mtime_to_ts(dir, inode_set_ctime_current(dir));
+#else"
	expect_grep "fix: a member gone assigned a value, the setter's call" "$TMP/fixc.patch" \
		"+	inode_set_atime_to_ts(inode, ts);"
	expect_grep "fix: another, on the next line" "$TMP/fixc.patch" "+	inode_set_mtime_to_ts(inode, ts);"
	"$KSUNSET" check --target "$H" --format json "$fc/fixchain.ko" >"$TMP/time.json" 2>"$TMP/err"
	expect_eq "fix: json: each location's line, as the rewrites of the breaks on it make it" "$(python3 -c '
import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    for l in f.get("locations", []):
        x = l["fix"]
        print(f["symbol"], l["line"], x and x["before"], "->", x and x["after"])' "$TMP/time.json" | sort)" \
		"struct inode.i_atime 19 inode->i_atime = ts; -> inode_set_atime_to_ts(inode, ts);
struct inode.i_ctime 13 dir->i_mtime = dir->i_ctime = current_time(dir); -> inode_set_mtime_to_ts(dir, inode_set_ctime_current(dir));
struct inode.i_mtime 13 dir->i_mtime = dir->i_ctime = current_time(dir); -> inode_set_mtime_to_ts(dir, inode_set_ctime_current(dir));
struct inode.i_mtime 20 inode->i_mtime = ts; -> inode_set_mtime_to_ts(inode, ts);"
	patched_builds fixchain "$TMP/fixc.patch" fixchain
	cat >"$TMP/time.migrations" <<-EOF
	From: 6.1
	To: 6.12

	Assign:  i_ctime = current_time()
	Rewrite: call inode_set_ctime_current
	Count:   9 of 10
	Example: a.c:1 -> a.c:1
	EOF
	(cd "$fc" && "$KSUNSET" fix --target "$H" --migrations "$TMP/time.migrations" fixchain.ko) >"$TMP/fixc.patch" 2>"$TMP/err"
	expect_eq "fix, a chain's outer link without a rewrite: exit 1" "$?" 1
	expect_grep "fix: a line whose rewrite leaves a member gone on it, named" "$TMP/fixc.patch" \
		"$fc/fixchain.c:13: still names i_mtime, gone on the target, after the rewrite (another use of it has none): not rewritten"
	expect_no_grep "fix: a line whose rewrite leaves a member gone on it, not rewritten" "$TMP/fixc.patch" "+++ b/fixchain.c"
	"$KSUNSET" check --target "$H" --migrations "$TMP/time.migrations" --format json "$fc/fixchain.ko" >"$TMP/time.json" 2>"$TMP/err"
	expect_eq "fix: json: null where the line would still name a member gone" "$(python3 -c '
import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    for l in f.get("locations", []):
        if l["line"] == 13:
            print(f["symbol"], l["line"], "fix" in l, l.get("fix"))' "$TMP/time.json" | sort)" \
		"struct inode.i_ctime 13 True None
struct inode.i_mtime 13 False None"
fi
# a struct named first in a prototype of the module's own header, no
# longer declared there by the target's headers: its #include goes in that
# header, before the prototype (in the .c it would come too late)
if fix_built fixdecl "$TMP/decl.patch"; then
	expect_eq "fix: an #include for a header's prototype: exit 0" "$fixrc" 0
	expect_grep "fix: the #include in the module's header that names the struct first" "$TMP/decl.patch" \
		"+++ b/fixdecl.h"
	expect_no_grep "fix: not in the .c, after that header" "$TMP/decl.patch" "+++ b/fixdecl.c"
	"$KSUNSET" check --target "$H" "$TMP/fixdecl/fixdecl.ko" >"$TMP/decl.out" 2>&1
	expect_grep "check: the fix-it at the header" "$TMP/decl.out" \
		"fix-it:\"$(realpath "$TMP/fixdecl")/fixdecl.h\":{6:1-6:1}:\"#include <linux/i2c.h>\\n\""
	patched_builds fixdecl "$TMP/decl.patch" "fix: an #include for a header's prototype"
fi
# a flag gone, dropped from what it is OR-ed with, 0 where it stands
# alone, as in-tree code did (the shipped migrations)
if fix_built fixomit "$TMP/omit.patch"; then
	expect_eq "fix: omit: exit 0" "$fixrc" 0
	expect_grep "fix: omit: the flag dropped from what it is OR-ed with" "$TMP/omit.patch" \
		"+	fixomit_cache = kmem_cache_create(\"fixomit\", 64, 0, SLAB_HWCACHE_ALIGN, NULL);
+#else"
	expect_grep "fix: omit: 0 where the flag stands alone" "$TMP/omit.patch" \
		"+	fixomit_cache2 = kmem_cache_create(\"fixomit2\", 64, 0, 0, NULL);"
	patched_builds fixomit "$TMP/omit.patch" "fix: omit"
fi
# calls that pass &init_user_ns where the target's prototypes take a struct
# mnt_idmap: &nop_mnt_idmap in its place, as in-tree callers passed there
# (the shipped migrations' Argument: entries)
if fix_built fixarg "$TMP/arg.patch"; then
	expect_eq "fix: an argument replaced: exit 0" "$fixrc" 0
	expect_grep "fix: an argument replaced: says what it did" "$TMP/err" \
		"ksunset: fix: 3 lines rewritten in 1 file; 0 breaks not rewritten"
	expect_grep "fix: an argument replaced: &nop_mnt_idmap for &init_user_ns" "$TMP/arg.patch" \
		"+	setattr_copy(&nop_mnt_idmap, inode, attr);
+#else
+	setattr_copy(&init_user_ns, inode, attr);"
	"$KSUNSET" check --target "$H" "$TMP/fixarg/fixarg.ko" >"$TMP/arg.out" 2>&1
	expect_grep "check: an argument replaced: what in-tree code passes" "$TMP/arg.out" \
		"note: in-tree code passes '&nop_mnt_idmap' instead of '&init_user_ns' as argument 1 of setattr_prepare()"
	expect_grep "check: an argument replaced: the fix-it" "$TMP/arg.out" \
		"fix-it:\"$(realpath "$TMP/fixarg")/fixarg.c\":{11:28-11:41}:\"&nop_mnt_idmap\""
	patched_builds fixarg "$TMP/arg.patch" "fix: an argument replaced"
fi
# reads of a field of an inode's times, gone by 6.12: the getter of the
# field in-tree code calls (inode_get_mtime_sec()), the read whole
if fix_built fixfield "$TMP/field.patch"; then
	expect_eq "fix: a field read: exit 0" "$fixrc" 0
	expect_grep "fix: a field read: the field's getter" "$TMP/field.patch" \
		"+	time64_t t = inode_get_mtime_sec(inode);
+#else
+	time64_t t = inode->i_mtime.tv_sec;"
	expect_grep "fix: a field read: the whole time's getter where the time is read whole" "$TMP/field.patch" \
		"+	struct timespec64 a = inode_get_atime(inode);"
	expect_grep "fix: a field read: two members' fields on one line, each its getter" "$TMP/field.patch" \
		"+	if (now < inode_get_ctime_sec(inode) || now < inode_get_atime_sec(inode))"
	patched_builds fixfield "$TMP/field.patch" "fix: a field read"
fi
# a callback's parameter gone on the target (update_time's struct
# timespec64 *), dropped from its head as in-tree callbacks did, its one
# use dropped with it from generic_update_time()'s arguments
if fix_built fixcbdrop "$TMP/cbdrop.patch"; then
	expect_eq "fix: a parameter dropped: exit 0" "$fixrc" 0
	expect_grep "fix: a parameter dropped: says what it did" "$TMP/err" \
		"ksunset: fix: 2 lines rewritten in 1 file; 0 breaks not rewritten"
	expect_grep "fix: a parameter dropped: the head without it" "$TMP/cbdrop.patch" \
		"+static int fixcbdrop_update_time(struct inode *inode, int flags)
+#else
+static int fixcbdrop_update_time(struct inode *inode, struct timespec64 *time, int flags)"
	"$KSUNSET" check --target "$H" "$TMP/fixcbdrop/fixcbdrop.ko" >"$TMP/cbdrop.out" 2>&1
	expect_grep "check: a parameter dropped: what in-tree callbacks did" "$TMP/cbdrop.out" \
		"note: in-tree struct inode_operations.update_time callbacks dropped parameter 2 (7 of the 7 in-tree callbacks"
	expect_grep "check: a parameter dropped: the fix-it" "$TMP/cbdrop.out" \
		"fix-it:\"$(realpath "$TMP/fixcbdrop")/fixcbdrop.c\":{8:55-8:80}:\"\""
	patched_builds fixcbdrop "$TMP/cbdrop.patch" "fix: a parameter dropped"
fi
# a callback's parameter gone on the target that its body reads
# (i2c_driver.probe's struct i2c_device_id *): dropped from its head, and
# declared in its body as in-tree probes that used it did
if fix_built fixcblocal "$TMP/cblocal.patch"; then
	expect_eq "fix: a parameter dropped that the body reads: exit 0" "$fixrc" 0
	expect_grep "fix: a parameter dropped that the body reads: the head without it" "$TMP/cblocal.patch" \
		"+static int fixcblocal_probe(struct i2c_client *client)
+#else
+static int fixcblocal_probe(struct i2c_client *client, const struct i2c_device_id *id)
+#endif
 {
+#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
+	const struct i2c_device_id *id = i2c_client_get_device_id(client);
+#endif
 	dev_info(&client->dev, \"probed as %s\\n\", id->name);"
	"$KSUNSET" check --target "$H" "$TMP/fixcblocal/fixcblocal.ko" >"$TMP/cblocal.out" 2>&1
	expect_grep "check: a parameter dropped that the body reads: what in-tree probes did" "$TMP/cblocal.out" \
		"of them, whose bodies still use it, declared parameter 2 a local set by i2c_client_get_device_id(parameter 1)"
	expect_grep "check: a parameter dropped that the body reads: the fix-its" "$TMP/cblocal.out" \
		"fix-it:\"$(realpath "$TMP/fixcblocal")/fixcblocal.c\":{7:54-7:86}:\"\"
fix-it:\"$(realpath "$TMP/fixcblocal")/fixcblocal.c\":{8:2-8:2}:\"\\n\\tconst struct i2c_device_id *id = i2c_client_get_device_id(client);\""
	patched_builds fixcblocal "$TMP/cblocal.patch" "fix: a parameter dropped that the body reads"
fi
# a function gone on the target that the older headers wrap, called with
# what the wrapper passes (hid_is_using_ll_driver(hdev, &usb_hid_driver)):
# the wrapper called instead, which takes usb_hid_driver, gone too, out
if fix_built fixwrap "$TMP/wrap.patch"; then
	expect_eq "fix: a gone function's wrapper: exit 0" "$fixrc" 0
	expect_grep "fix: a gone function's wrapper: says what it did" "$TMP/err" \
		"ksunset: fix: 2 lines rewritten in 1 file; 0 breaks not rewritten"
	expect_grep "fix: a gone function's wrapper: the call rewritten" "$TMP/wrap.patch" \
		"-	return hdev && hid_is_using_ll_driver(hdev, &usb_hid_driver);
+#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
+	return hdev && hid_is_usb(hdev);
+#else"
	expect_grep "fix: a gone function's wrappers, one per constant: the one of the call's" "$TMP/wrap.patch" \
		"-	return __getblk_gfp(bdev, block, size, __GFP_MOVABLE);
+#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
+	return __getblk(bdev, block, size);
+#else"
	"$KSUNSET" check --target "$H" "$TMP/fixwrap/fixwrap.ko" >"$TMP/wrap.out" 2>&1
	expect_grep "check: a gone function's wrapper: what the older headers define" "$TMP/wrap.out" \
		"note: 6.1's headers define hid_is_usb() as hid_is_using_ll_driver() with '&usb_hid_driver' as argument 2, and 6.12's still declare hid_is_usb()"
	expect_grep "check: a gone function's wrapper: the fix-it" "$TMP/wrap.out" \
		"fix-it:\"$(realpath "$TMP/fixwrap")/fixwrap.c\":{11:17-11:62}:\"hid_is_usb(hdev)\""
	expect_grep "check: a gone function's wrappers, one per constant: what the older headers define" "$TMP/wrap.out" \
		"note: 6.1's headers define __getblk() as __getblk_gfp() with '__GFP_MOVABLE' as argument 4, and 6.12's still declare __getblk()"
	patched_builds fixwrap "$TMP/wrap.patch" "fix: a gone function's wrapper"
fi
# a member gone (struct class's owner) set in a designated initializer:
# its line deleted for 6.12, as in-tree initializers went with it
if fix_built fixinit "$TMP/init.patch"; then
	expect_eq "fix: a member gone's initializer: exit 0" "$fixrc" 0
	expect_grep "fix: a member gone's initializer: deleted for 6.12, kept for 6.1" "$TMP/init.patch" \
		"-	.owner = THIS_MODULE,
+#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
+#else
+	.owner = THIS_MODULE,
+#endif"
	"$KSUNSET" check --target "$H" "$TMP/fixinit/fixinit.ko" >"$TMP/init.out" 2>&1
	expect_grep "check: a member gone's initializer: what in-tree code did" "$TMP/init.out" \
		"fixinit.c:9:9: note: in-tree code deletes the initializer of struct class.owner ("
	expect_grep "check: a member gone's initializer: the fix-it empties its line" "$TMP/init.out" \
		"fix-it:\"$(realpath "$TMP/fixinit")/fixinit.c\":{9:2-9:23}:\"\""
	patched_builds fixinit "$TMP/init.patch" "fix: a member gone's initializer"
fi
# a unit compiled through a link (openafs's MODLOAD-RELEASE folder links
# to its sources): the patch is of the file the link leads to
fl=$TMP/fixlink
if mkdir -p "$fl.src/real" && cp "$TOP/tests/kbuild/fix/Kbuild" "$TOP/tests/kbuild/fix/fixcall.c" "$fl.src/real/" &&
	mkdir -p "$fl" && cp "$fl.src/real/Kbuild" "$fl/" && sed -i 's/ fixhdr.o\| fixcb.o\| fixread.o\| fixinc.o\| fixdel.o\| fixtgt.o\| fixtime.o//g' "$fl/Kbuild" &&
	mv "$fl.src/real" "$fl/real" && ln -s real/fixcall.c "$fl/fixcall.c" &&
	make -C "$K" M="$fl" modules KCFLAGS="$API" >"$fl.log" 2>&1; then
	(cd "$fl" && "$KSUNSET" fix --target "$H" fixcall.ko) >"$TMP/fix4.patch" 2>"$TMP/err"
	expect_eq "fix through a link: the file it leads to is patched, not the link" \
		"$(grep -c '^+++ b/real/fixcall.c$' "$TMP/fix4.patch"):$(grep -c '^+++ b/fixcall.c$' "$TMP/fix4.patch")" "1:0"
else
	fail "fix through a link: build against $old"
fi
if [ -f "$b/breaks.ko" ]; then
	(cd "$b" && "$KSUNSET" fix --target "$H" breaks.ko) >"$TMP/fix.patch" 2>"$TMP/err"
	expect_eq "fix, breaks without a rewrite: exit 1" "$?" 1
	expect_grep "fix: the breaks it cannot rewrite, listed" "$TMP/fix.patch" "  $b/main.c:29: prototype generic_fillattr"
	expect_grep "fix: the ones it can, rewritten" "$TMP/fix.patch" "+#include <linux/unaligned.h>"
	expect_grep "fix: the ones it can, rewritten (a call)" "$TMP/fix.patch" "+	breaks_class = class_create(breaks_name);"
	expect_grep "fix: a callback whose parameters run over two lines, its line rewritten" "$TMP/fix.patch" \
		"-static int breaks_getattr(struct user_namespace *ns, const struct path *path,
+#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
+static int breaks_getattr(struct mnt_idmap *ns, const struct path *path,
+#else"
	expect_grep "fix: a field of a member gone read, the field's getter" "$TMP/fix.patch" \
		"+	return inode_get_mtime_sec(inode) + get_unaligned_le32(breaks_name);"
	# without the field's entry, the whole member's, whose in-tree reads
	# went two ways: listed with both, not rewritten
	sed '/^Read: *struct inode.i_mtime.tv_sec$/,/^$/d' "$TOP/share/migrations/6.1-6.12.migrations" >"$TMP/two.migrations"
	(cd "$b" && "$KSUNSET" fix --target "$H" --migrations "$TMP/two.migrations" breaks.ko) >"$TMP/fix2.patch" 2>"$TMP/err"
	expect_grep "fix: a member gone whose in-tree reads went two ways, listed with both" "$TMP/fix2.patch" \
		"  $b/main.c:39: member-gone struct inode.i_mtime: in-tree code shows no rewrite to copy: of the 69 in-tree reads of struct inode.i_mtime that changed from 6.1 to 6.12, 42 called inode_get_mtime()"
	expect_no_grep "fix: a member gone whose in-tree reads went two ways, not rewritten" "$TMP/fix2.patch" \
		"inode_get_mtime_sec(inode)"
fi
"$KSUNSET" fix "$TOP/tests/shell/lib.sh" >"$TMP/out" 2>"$TMP/err"
expect_eq "fix without --target: exit 2" "$?:$(grep -c 'no --target given' "$TMP/err")" "2:1"
"$KSUNSET" fix --target "$K" --target "$H" "$TOP/tests/shell/lib.sh" >"$TMP/out" 2>"$TMP/err"
expect_eq "fix with two targets: exit 2" "$?:$(grep -c 'one --target' "$TMP/err")" "2:1"

# A copy of the target (hard links: cheap), its Makefile pointing at its
# own -common tree: what a user has who changes the headers in place.
hc=${H%-amd64}-common kb=$(readlink "$H/scripts")
copy_target() {
	rm -rf "$1" && mkdir -p "$1/usr/src" "$1/usr/lib" &&
		cp -al "$H" "$hc" "$1/usr/src/" &&
		ln -s "$(cd "$H" && cd "$(dirname "$kb")" && pwd)" "$1/usr/lib/$(basename "$(dirname "$kb")")" &&
		sed -i "s|^include .*/usr/src/|include $1/usr/src/|" "$1/usr/src/$(basename "$H")/Makefile"
}

# --- the probe cache holds only while the headers the probe read are
# unchanged: a declaration deleted in place makes the cached result stale
ct=$TMP/edited
if [ -f "$cl/own.ko" ] && copy_target "$ct"; then
	"$KSUNSET" check --target "$ct/usr/src/$(basename "$H")" "$cl/own.ko" >"$TMP/out" 2>&1
	expect_grep "edited headers: before the edit, own.ko builds" "$TMP/out" "own.ko on $new: builds and loads there"
	sed -i '/^extern void mem_init(void);/d' "$ct/usr/src/$(basename "$hc")/include/linux/mm.h"
	"$KSUNSET" check --target "$ct/usr/src/$(basename "$H")" "$cl/own.ko" >"$TMP/out" 2>&1
	expect_grep "edited headers: the cached result is not taken: mem_init() is gone" "$TMP/out" \
		"$cl/own_main.c:17:9: error: call to 'mem_init' in 'own_init' (gone on $new)"
else
	fail "edited headers: no own.ko, or the target could not be copied"
fi

# --- a module whose one change is a namespace import: the kind is named
ct=$TMP/nsed
if [ -f "$cl/own.ko" ] && copy_target "$ct"; then
	sed -i 's/^\(0x[0-9a-f]*\t_printk\tvmlinux\tEXPORT_SYMBOL\t\)$/\1KS_TEST/' \
		"$ct/usr/src/$(basename "$H")/Module.symvers"
	"$KSUNSET" check --target "$ct/usr/src/$(basename "$H")" "$cl/own.ko" >"$TMP/out" 2>&1
	expect_grep "a namespace alone: add MODULE_IMPORT_NS" "$TMP/out" "add MODULE_IMPORT_NS(KS_TEST)"
	expect_grep "a namespace alone: the outlook names its kind" "$TMP/out" \
		"own.ko on $new: needs source changes: 1 place (1 kind: namespace)"
else
	fail "namespace alone: no own.ko, or the target could not be copied"
fi

# --- a target whose include/ is a symbolic link (relative): its headers
# are scanned, so a name not included is still found where it is declared
ct=$TMP/linked
if [ -f "$b/breaks.ko" ] && copy_target "$ct"; then
	rm -rf "$ct/usr/src/$(basename "$hc")/include"
	ln -s "$(python3 -c 'import os,sys; print(os.path.relpath(sys.argv[1], sys.argv[2]))' \
		"$hc/include" "$ct/usr/src/$(basename "$hc")")" "$ct/usr/src/$(basename "$hc")/include"
	"$KSUNSET" check --target "$ct/usr/src/$(basename "$H")" "$b/breaks.ko" >"$TMP/out" 2>&1
	expect_grep "symlinked include/: the header that declares vzalloc is found" "$TMP/out" \
		"\"vzalloc\" [$b/breaks.ko] does not build on the target kernel $new (not-included): not declared by the headers the source includes; <linux/vmalloc.h> declares it"
else
	fail "symlinked include/: no breaks.ko, or the target could not be copied"
fi

# --- modules of one package checked together -----------------------------
pr=$TMP/pair
if KB_KDIR=$K kbuild "$TOP/tests/kbuild/pair" "$pr" KCFLAGS="$API"; then
	"$KSUNSET" check --target "$H" "$pr/pair_a.ko" "$pr/pair_b.ko" >"$TMP/out" 2>&1
	expect_eq "pair: the other module's export is there: no finding" \
		"$(grep -c 'pair_hello' "$TMP/out")" 0
	"$KSUNSET" check --target "$H" "$pr/modules.order" >"$TMP/out" 2>&1
	expect_eq "pair: the same through modules.order" "$(grep -c 'pair_hello' "$TMP/out")" 0
	"$KSUNSET" check --target "$H" "$pr/pair_b.ko" >"$TMP/out" 2>&1
	expect_grep "pair: alone, the import is missing" "$TMP/out" \
		"\"pair_hello\" [$pr/pair_b.ko] is not exported by the target kernel $new"
	expect_grep "pair: alone, no rebuild is said to be enough: its provider was not given" \
		"$TMP/out" "another module provides it, which was not given with it"
	expect_eq "pair: alone, no rebuild verdict for it" \
		"$(grep 'pair_hello' "$TMP/out" | grep -c 'rebuild against its headers is enough')" 0
else
	fail "pair: build against $old"
fi

# --- no shape records, no usable Kbuild: unknown, never rebuild -----------
n=$TMP/noapi
if KB_KDIR=$K kbuild "$TOP/tests/kbuild/forecast" "$n"; then
	"$KSUNSET" check --target "$H" "$n/forecast.ko" >"$TMP/out" 2>&1
	expect_grep "without the plugin: remedy unknown, and why" "$TMP/out" \
		"\"kmalloc_trace\" [$n/forecast.ko] is not exported by the target kernel $new: whether a rebuild is enough is unknown (built without the ksunset plugin: no record of what its source depends on)"
	expect_eq "without the plugin: no rebuild verdict" "$(grep -c 'rebuild against its headers is enough' "$TMP/out")" 0
else
	fail "noapi: build against $old"
fi
mkdir -p "$TMP/nokbuild"
cp "$H/Module.symvers" "$TMP/nokbuild/"
cp -r "$H/include" "$TMP/nokbuild/" 2>/dev/null
"$KSUNSET" check --target "$TMP/nokbuild" --target-release 6.12.95 "$d/forecast.ko" >"$TMP/out" 2>"$TMP/err"
expect_eq "no Kbuild: exit 1 (the module will not load)" "$?" 1
expect_grep "no Kbuild: one note naming the folder" "$TMP/err" \
	"$TMP/nokbuild: note: no kernel headers here (no include/linux/module.h): --target gives load verdicts, but whether the modules build there stays unknown"
expect_eq "no Kbuild: said once" "$(grep -c 'note:' "$TMP/err")" 1
mkdir -p "$TMP/nomake/include/linux"
cp "$H/Module.symvers" "$TMP/nomake/"
: >"$TMP/nomake/include/linux/module.h"
"$KSUNSET" check --target "$TMP/nomake" --target-release 6.12.95 "$d/forecast.ko" >"$TMP/out" 2>"$TMP/err"
expect_grep "headers, no Makefile: the note says which" "$TMP/err" \
	"$TMP/nomake: note: $TMP/nomake has no Makefile: no Kbuild to compile the probe with; whether the modules build there is unknown"
expect_eq "headers, no Makefile: said once" "$(grep -c 'note:' "$TMP/err")" 1
expect_eq "no Kbuild: no rebuild verdict" "$(grep -c 'rebuild against its headers is enough' "$TMP/out")" 0
H7=$(fetch_headers trixie-backports 'linux-headers-7\.[0-9.]+\+deb13-amd64')
if [ $? -eq 0 ]; then
	"$KSUNSET" check --target "$H7" "$d/forecast.ko" >"$TMP/out" 2>"$TMP/err"
	expect_eq "7.x headers (gcc-14): exit 1" "$?" 1
	expect_grep "7.x headers: the probe cannot run, and why" "$TMP/err" \
		"note: the forecast's probe cannot be compiled here: /bin/sh: 1: x86_64-linux-gnu-gcc-14: not found; whether the modules build there is unknown"
	expect_eq "7.x headers: the note once" "$(grep -c "probe cannot be compiled" "$TMP/err")" 1
	expect_eq "7.x headers: every missing export's remedy unknown" \
		"$(grep '^ERROR.*is not exported by' "$TMP/out" | grep -vc 'is unknown')" 0
	expect_grep "7.x headers: their Makefile is read (KBUILD_OUTPUT first)" "$TMP/out" "whether it builds there is unknown"
else
	skip "cannot fetch trixie-backports' 7.x headers: $(tail -1 "$TMP/fetch.log")"
fi

# --- ksunset make --target: no schedule needed, the target's exports -----
mk=$TMP/make-target
cp -r "$TOP/tests/kbuild/forecast" "$mk"
(cd "$mk" && KSUNSET_SCHEDULE= "$KSUNSET" make --target "$H" -C "$K" M="$mk") >"$TMP/out" 2>"$TMP/err"
expect_eq "make --target, no schedule: exit 1 (checked, not 'nothing checked')" "$?" 1
expect_eq "make --target: the build kernel's exports hide none of the target's removals" \
	"$(grep -c '^ERROR.*is not exported by the target kernel' "$TMP/out")" 3
expect_grep "make --target: the api argument, implied: a forecast" "$TMP/out" \
	"forecast.ko on $new: builds and loads there once rebuilt"
readelf -p .note.ksunset "$mk/forecast.ko" >"$TMP/notes" 2>/dev/null
expect_grep "make --target: the module has shape records" "$TMP/notes" "ksunset 4"
mk=$TMP/make-notarget
cp -r "$TOP/tests/kbuild/forecast" "$mk"
(cd "$mk" && KSUNSET_SCHEDULE= "$KSUNSET" make --target /nonexistent -C "$K" M="$mk") >"$TMP/out" 2>"$TMP/err"
expect_eq "make --target /nonexistent: exit 2" "$?" 2
expect_grep "make --target /nonexistent: said" "$TMP/err" "/nonexistent: error: cannot read: No such file or directory"
expect_eq "make --target /nonexistent: said before any build" "$(ls "$mk"/*.o 2>/dev/null | wc -l)" 0
(cd "$mk" && KSUNSET_SCHEDULE= "$KSUNSET" make --target "$TMP" --target "$TMP" -C "$K" M="$mk") >"$TMP/out" 2>"$TMP/err"
expect_eq "make, the same --target twice: exit 2" "$?" 2
expect_grep "make, the same --target twice: said" "$TMP/err" "--target '$TMP' given twice"
expect_eq "make, the same --target twice: said before any build" "$(ls "$mk"/*.o 2>/dev/null | wc -l)" 0
mk=$TMP/make-api
cp -r "$TOP/tests/kbuild/pair" "$mk"
(cd "$mk" && KSUNSET_SCHEDULE= "$KSUNSET" make --api -C "$K" M="$mk") >"$TMP/out" 2>"$TMP/err"
expect_eq "make --api, no schedule: exit 0 (built, nothing checked)" "$?" 0
expect_grep "make --api: shape records" "$(readelf -p .note.ksunset "$mk/pair_b.ko" >"$TMP/notes" 2>&1; echo "$TMP/notes")" "ksunset 4"
"$KSUNSET" --cflags --api --kernel-dir "$K" >"$TMP/out" 2>"$TMP/err"
expect_eq "--cflags --api: exit 0" "$?" 0
expect_grep "--cflags --api: the plugin's api argument" "$TMP/out" "-fplugin-arg-ksunset-api"

# A Module.symvers target: load verdicts, remedies unknown, one note.
# Namespaces: kfree in one the module does not import; vfree only for
# modules named forecast* (this one); _printk only for kvm.
awk -F'\t' 'BEGIN { OFS = "\t" }
	$2 == "kfree" { $5 = "SLAB_TEST" } $2 == "vfree" { $5 = "module:kvm,fore*" }
	$2 == "_printk" { $5 = "module:kvm" } { print }' "$H/Module.symvers" >"$TMP/Module.symvers"
"$KSUNSET" check --target "$TMP/Module.symvers" --target-release 6.12.95 "$d/forecast.ko" >"$TMP/out" 2>"$TMP/err"
expect_eq "Module.symvers target: exit 1" "$?" 1
expect_grep "Module.symvers target: one note on the missing headers" "$TMP/err" \
	"$TMP/Module.symvers: note: no kernel headers here (no include/linux/module.h): --target gives load verdicts, but whether the modules build there stays unknown"
expect_eq "Module.symvers target: one note, said once" "$(grep -c 'note:' "$TMP/err")" 1
expect_grep "Module.symvers target: remedy unknown" "$TMP/out" \
	"\"kmalloc_trace\" [$d/forecast.ko] is not exported by the target kernel 6.12.95: whether a rebuild is enough is unknown (the target is a Module.symvers: no headers to probe)"
expect_grep "namespace: MODULE_IMPORT_NS needed, unless the headers (not probed) import it" "$TMP/out" \
	"\"kfree\" [$d/forecast.ko] is in namespace SLAB_TEST in the target kernel 6.12.95: add MODULE_IMPORT_NS(SLAB_TEST), unless the target's headers import it (whether they do is unknown: the target is a Module.symvers: no headers to probe), or the module will not load there"
expect_grep "namespace: a module: list not naming the module" "$TMP/out" \
	"\"_printk\" [$d/forecast.ko] is exported only to module:kvm in the target kernel 6.12.95: the module will not load there"
expect_eq "namespace: a module: list whose glob names the module" "$(grep -c '"vfree"' "$TMP/out")" 0
expect_eq "not in the build's schedule: DWARF places every use" \
	"$(grep -c 'no source location' "$TMP/out")" 0
"$KSUNSET" check --locations=plugin --target "$TMP/Module.symvers" --target-release 6.12.95 \
	"$d/forecast.ko" >"$TMP/out" 2>"$TMP/err"
expect_grep "records only: no location, and says why" "$TMP/out" "$d/forecast.ko: note: no source location (the plugin records the symbols of the schedule it builds with"
"$KSUNSET" check --target "$TMP/Module.symvers" --format json "$d/forecast.ko" 2>/dev/null |
	python3 -c 'import json,sys; print(sorted({(f["target_status"], f["remedy"]) for f in json.load(sys.stdin)["findings"]}))' >"$TMP/got"
expect_eq "Module.symvers target json: every remedy unknown but a module: list's" "$(cat "$TMP/got")" \
	"[('missing', 'unknown'), ('namespace', 'source-change'), ('namespace', 'unknown')]"

exit 0
