#!/bin/sh
# ksunset unused --counts over every module of Debian's kernel package for
# the kernel headers installed (4,023 modules for 6.1.0-57-amd64), compared
# for every export with the counts nm -u gives. Needs the package: it is
# fetched with apt-get download, or taken from $KSUNSET_KERNEL_DEB; the
# test is skipped, saying so, when neither works.
. "$(dirname "$0")/lib.sh"
K=$(kdir)
if [ -z "$K" ]; then skip "no kernel headers in /usr/src (linux-headers-amd64)"; exit 0; fi
abi=$(basename "$K" | sed 's/^linux-headers-//')
pkg="linux-image-$abi"
deb=${KSUNSET_KERNEL_DEB:-}
if [ -z "$deb" ]; then
	if ! (cd "$TMP" && apt-get download "$pkg") >"$TMP/apt.log" 2>&1; then
		skip "cannot download $pkg (offline? try apt-get update, or set KSUNSET_KERNEL_DEB): $(tail -1 "$TMP/apt.log")"
		exit 0
	fi
	deb=$(ls "$TMP"/"$pkg"_*.deb)
fi
if ! dpkg -x "$deb" "$TMP/root" 2>"$TMP/dpkg.log"; then
	skip "cannot unpack $deb: $(tail -1 "$TMP/dpkg.log")"
	exit 0
fi
M="$TMP/root/lib/modules"
find "$M" -name '*.ko' -o -name '*.ko.xz' -o -name '*.ko.zst' -o -name '*.ko.gz' | sort >"$TMP/kos"
n=$(wc -l <"$TMP/kos")
if grep -qv '\.ko$' "$TMP/kos"; then skip "$pkg has compressed modules: nm cannot give the reference"; exit 0; fi
[ "$n" -gt 1000 ] && pass "$pkg: $n modules" || fail "$pkg: only $n modules"

nm_counts "$TMP/kos" "$K/Module.symvers" >"$TMP/want"
"$KSUNSET" unused --counts -i "$K/Module.symvers" "$M" >"$TMP/got" 2>"$TMP/err"
expect_eq "unused --counts over $n modules: exit 0" "$?" 0
expect_eq "every export listed" "$(wc -l <"$TMP/got")" "$(wc -l <"$K/Module.symvers")"
expect_file_eq "every export's count agrees with nm -u" "$TMP/got" "$TMP/want"
expect_grep "summary counts the modules" "$TMP/err" "imported by none of $n modules"
exit 0
