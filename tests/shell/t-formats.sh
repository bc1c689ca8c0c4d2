#!/bin/sh
# Newer kernels' formats on real files, fetched by scripts/fetch-debian.sh
# (skipped, saying so, when the Debian archive cannot be reached):
# Debian 13's 6.12 modules (.ko.xz) and trixie-backports' 7.x modules
# (__kflagstab instead of __ksymtab_gpl) and Module.symvers (string
# namespaces, "module:" lists). unused, users, check --target, diff and
# lint read them; what they find is compared with nm -u over the same
# modules decompressed by xz.
. "$(dirname "$0")/lib.sh"
LC_ALL=C
export LC_ALL
F="$TOP/scripts/fetch-debian.sh"

newest() { "$F" "$1" list "$2" 2>"$TMP/fetch.log" | tail -n 1; }
get() { "$F" "$@" 2>"$TMP/fetch.log"; }
skip_fetch() { skip "cannot fetch $1 (status $2): $(tail -1 "$TMP/fetch.log")"; exit 0; }

# plain DIR OUT-LIST: every .ko.xz under DIR decompressed into the same
# place under $TMP/plain, their paths listed in OUT-LIST.
plain() {
	rm -rf "$TMP/plain" && mkdir -p "$TMP/plain"
	find "$1" -name '*.ko.xz' | sort | while read -r f; do
		out=$TMP/plain/${f#"$1"/}
		out=${out%.xz}
		mkdir -p "$(dirname "$out")" && xz -dc "$f" >"$out" && echo "$out"
	done >"$2"
}

# --- Debian 13: 6.12 modules, every one .ko.xz -------------------------
img=$(newest trixie 'linux-image-6\.12\.[0-9]+\+deb13-amd64-unsigned') && [ -n "$img" ] || skip_fetch "trixie's 6.12 image list" $?
rel=$(echo "$img" | sed 's/^linux-image-//; s/-unsigned$//')
root=$(get trixie get "$img" "linux-headers-$rel") || skip_fetch "$img" $?
M=$root/usr/lib/modules/$rel/kernel
S=$root/usr/src/linux-headers-$rel/Module.symvers
n=$(find "$M" -name '*.ko.xz' | wc -l)
expect_eq "$rel: every module is .ko.xz" "$(find "$M" -name '*.ko*' | wc -l)" "$n"
[ "$n" -gt 4000 ] && pass "$rel: $n modules" || fail "$rel: only $n modules"

sub=$M/sound
plain "$sub" "$TMP/list"
nm_counts "$TMP/list" "$S" >"$TMP/want"
"$KSUNSET" unused --counts -i "$S" "$sub" >"$TMP/got" 2>"$TMP/err"
expect_eq "unused --counts over $(wc -l <"$TMP/list") .ko.xz: exit 0" "$?" 0
expect_file_eq "unused --counts of .ko.xz: what nm -u says of the same modules" "$TMP/got" "$TMP/want"
xargs nm -u <"$TMP/list" | awk '/:$/ { m = $1 } $2 == "snd_pcm_new" { print m }' |
	sed 's|.*/||; s/:$//' | sort >"$TMP/want"
"$KSUNSET" users snd_pcm_new -- "$sub" 2>/dev/null | cut -f2 | sed 's|.*/||; s/\.xz$//' | sort >"$TMP/got"
expect_file_eq "users snd_pcm_new in .ko.xz: the modules nm -u names" "$TMP/got" "$TMP/want"
"$KSUNSET" check --target "$S" --target-release "$rel" "$sub" >"$TMP/out" 2>"$TMP/err"
expect_eq "check --target its own Module.symvers: every module loads (exit 0)" "$?" 0
expect_grep "check --target: .ko.xz read" "$TMP/err" "$(wc -l <"$TMP/list") modules checked: 0 errors"

# --- trixie-backports: 7.x ---------------------------------------------
mods=$(newest trixie-backports 'linux-modules-7\.[0-9.]+\+deb13-cloud-amd64') && [ -n "$mods" ] || skip_fetch "trixie-backports' 7.x modules list" $?
rel7=$(echo "$mods" | sed 's/^linux-modules-//; s/-cloud-amd64$//')
root=$(get trixie-backports get "$mods" "linux-headers-$rel7-amd64") || skip_fetch "$mods" $?
M7=$root/usr/lib/modules/$rel7-cloud-amd64/kernel
H7=$root/usr/src/linux-headers-$rel7-amd64
S7=$H7/Module.symvers
expect_eq "$rel7 Module.symvers: \"module:\" lists" "$(grep -c "$(printf '\tmodule:kvm,kvm-amd,kvm-intel$')" "$S7" | sed 's/^[1-9][0-9]*$/some/')" some
plain "$M7/arch/x86/kvm" "$TMP/list7"
kvm=$TMP/plain/kvm.ko
readelf -S -W "$kvm" >"$TMP/sections"
expect_grep "$rel7 kvm.ko has __kflagstab" "$TMP/sections" "__kflagstab"
expect_eq "$rel7 kvm.ko has no __ksymtab_gpl" "$(grep -c '__ksymtab_gpl' "$TMP/sections")" 0
nm_counts "$TMP/list7" "$S7" >"$TMP/want"
"$KSUNSET" unused --counts -i "$S7" "$M7/arch/x86/kvm" >"$TMP/got" 2>/dev/null
expect_file_eq "$rel7: unused --counts of kvm*.ko.xz: what nm -u says" "$TMP/got" "$TMP/want"
# kvm-amd and kvm-intel use exports that 7.x gives only to "module:kvm-amd,kvm-intel":
# the loader's matching ('-' is '_') admits them.
"$KSUNSET" check --target "$S7" --target-release "$rel7" "$M7/arch/x86/kvm" >"$TMP/out" 2>"$TMP/err"
expect_eq "check --target $rel7 kvm, kvm-amd, kvm-intel: they load (exit 0)" "$?" 0
expect_eq "check --target $rel7: no namespace finding" "$(grep -c 'namespace' "$TMP/out")" 0
# the same modules renamed, as an out-of-tree module would be: refused
for f in $(cat "$TMP/list7"); do sed 's/name=kvm/name=oot/' "$f" >"${f%.ko}-oot.ko"; done
"$KSUNSET" check --target "$S7" --target-release "$rel7" "$TMP/plain/"*-oot.ko >"$TMP/out" 2>&1
expect_eq "renamed out-of-tree: refused (exit 1)" "$?" 1
expect_grep "renamed out-of-tree: a module: list does not admit it" "$TMP/out" \
	"in the target kernel $rel7: the module will not load there"

# diff and lint read 7.x's Module.symvers
"$KSUNSET" diff "$S" "$S7" --new-release "$rel7" --schedule-out "$TMP/7.schedule" >"$TMP/diff" 2>"$TMP/err"
expect_eq "diff 6.12 -> $rel7: exit 0" "$?" 0
expect_grep "diff: moves into module: lists" "$TMP/diff" "(a removal for other modules)"
removed=$(grep -c '^removed:' "$TMP/diff")
"$KSUNSET" lint -s "$TMP/7.schedule" -i "$S7" >"$TMP/lint" 2>&1
expect_eq "lint of the schedule against $rel7's Module.symvers: exit 1" "$?" 1
expect_eq "lint: each removed export is not exported" \
	"$(grep -c 'is not exported by the kernel (not in Module.symvers)' "$TMP/lint")" "$removed"
exit 0
