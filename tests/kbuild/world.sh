#!/bin/sh
# make check-world: the plugin on real out-of-tree modules, the Debian DKMS
# packages listed in ../shared/corpus/dkms-packages.tsv (fetched with
# apt-get download, unpacked with dpkg -x into a temporary folder). Each is
# built with and without the plugin, against a schedule that lists every
# export of the kernel's Module.symvers. Asserts: the build succeeds either
# way with the same .ko files, and for each .ko the symbols the plugin
# recorded are exactly the scheduled symbols among its undefined symbols,
# except those listed in INVISIBLE (uses a GIMPLE pass cannot see).
# Usage: world.sh [TSV]
T_SELF=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$T_SELF/../.." && pwd)
. "$TOP/tests/shell/lib.sh"
PLUGIN=${PLUGIN:-$TOP/build/ksunset.so}
TSV=${1:-${KSUNSET_CORPUS:-$TOP/../shared/corpus}/dkms-packages.tsv}
K=$(kdir)
[ -n "$K" ] || { skip "no kernel headers in /usr/src"; exit 0; }
[ -f "$TSV" ] || { skip "no package list $TSV"; exit 0; }
REL=${K#/usr/src/linux-headers-}

# What a GIMPLE pass cannot see: calls GCC makes itself (__fentry__ for
# ftrace, the retpoline and return thunks, the stack protector's
# __stack_chk_fail), and calls written in inline assembly (static calls
# __SCT__*, get_user()/put_user()'s __get_user_N). Left out on both sides:
# where the plugin does see one (a static call made from C), it is right.
INVISIBLE='^(__fentry__|__x86_return_thunk|__x86_indirect_thunk_.*|__stack_chk_fail|__SCT__.*|__get_user_.*|__put_user_.*)$'

# A schedule with every export, in one entry (continuation lines).
awk '{ print $2 }' "$K/Module.symvers" | sort -u >"$TMP/exports"
schedule_every "$TMP/exports" "$TMP/all.schedule"
KCF="-fplugin=$PLUGIN -fplugin-arg-ksunset-schedule=$TMP/all.schedule -fplugin-arg-ksunset-quiet"

# build DIR CMD [KCFLAGS]: runs a package's build command in DIR.
build() {
	# shellcheck disable=SC2034 # S and K are for the eval'd command
	(cd "$1" && S=$1 K=$K && eval "KCFLAGS=\"$3\" $2") >"$1.log" 2>&1
}

kos() { (cd "$1" && find . -name '*.ko' | sort); }

recorded() {
	readelf -p .note.ksunset "$1" 2>/dev/null |
		sed -n 's/^ *\[ *[0-9a-f]*\]  ksunset 1^Iuse^I\([^^]*\)^I.*/\1/p' | sort -u |
		grep -Ev "$INVISIBLE"
}

imported() {
	nm -u "$1" | awk '{ print $2 }' | sort -u | comm -12 - "$TMP/exports" |
		grep -Ev "$INVISIBLE"
}

check_kos() { # check_kos PKG DIR
	for ko in $(kos "$2"); do
		recorded "$2/$ko" >"$TMP/rec"
		imported "$2/$ko" >"$TMP/imp"
		if cmp -s "$TMP/rec" "$TMP/imp"; then
			pass "$1: $ko: records = scheduled imports ($(wc -l <"$TMP/imp"))"
		else
			fail "$1: $ko: records differ from scheduled imports"
			comm -13 "$TMP/rec" "$TMP/imp" | sed 's/^/  imported, no record: /'
			comm -23 "$TMP/rec" "$TMP/imp" | sed 's/^/  recorded, not imported: /'
		fi
	done
}

world_one() { # world_one PKG PREFIX NKO CMD
	pkg=$1 prefix=$2 nko=$3 cmd=$4
	mkdir -p "$TMP/dl/$pkg" && cd "$TMP/dl/$pkg" || return
	if ! apt-get download "$pkg" >"$TMP/dl/$pkg.log" 2>&1; then
		skip "$pkg: apt-get download failed: $(tail -n 1 "$TMP/dl/$pkg.log")"; return
	fi
	mkdir -p "$TMP/x/$pkg" && dpkg -x ./*.deb "$TMP/x/$pkg" || { fail "$pkg: dpkg -x"; return; }
	src=$(ls -d "$TMP/x/$pkg/usr/src/$prefix"* 2>/dev/null | head -n 1)
	[ -n "$src" ] || { fail "$pkg: no usr/src/$prefix* in the package"; return; }
	cp -r "$src" "$TMP/plain-$pkg" && cp -r "$src" "$TMP/plug-$pkg" || return
	cmd=$(echo "$cmd" | sed "s/<release>/$REL/g; s/ *(.*)\$//")
	build "$TMP/plain-$pkg" "$cmd" "" || { skip "$pkg: does not build without the plugin"; return; }
	if ! build "$TMP/plug-$pkg" "$cmd" "$KCF"; then
		fail "$pkg: builds without the plugin, not with it"
		tail -n 20 "$TMP/plug-$pkg.log" | sed 's/^/  | /'
		return
	fi
	kos "$TMP/plain-$pkg" >"$TMP/ko-plain"
	kos "$TMP/plug-$pkg" >"$TMP/ko-plug"
	expect_file_eq "$pkg: same .ko files with the plugin" "$TMP/ko-plug" "$TMP/ko-plain"
	expect_eq "$pkg: number of .ko" "$(wc -l <"$TMP/ko-plug")" "$nko"
	if grep -qi "internal compiler error" "$TMP/plug-$pkg.log"; then fail "$pkg: ICE"; fi
	check_kos "$pkg" "$TMP/plug-$pkg"
}

grep -v '^#' "$TSV" >"$TMP/list"
while IFS='	' read -r pkg prefix nko cmd; do
	[ -n "$pkg" ] || continue
	echo "== $pkg"
	world_one "$pkg" "$prefix" "$nko" "$cmd"
done <"$TMP/list"
cd "$TOP" || exit 1
echo "world: $(grep -c . "$TMP/list") packages"
exit "${T_FAILED:-0}"
