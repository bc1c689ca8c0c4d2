#!/bin/sh
# make bench, DWARF part: the shared DKMS packages (../shared/corpus/
# dkms-packages.tsv, fetched with apt-get download, unpacked with dpkg -x)
# built without the plugin and with it, against a schedule of every export.
# Measures how many of the plugin's source lines the DWARF of the plain
# build reproduces (bench/dwarf-compare.py classifies the rest), and what
# lines cost: check of the plain builds with DWARF against without.
# Then the same cost on a whole distribution kernel: Debian's
# linux-image-6.1.0-*-amd64-dbg (860 MB, fetched once into the cache of
# scripts/fetch-debian.sh; skipped with a message if the archive cannot be
# reached), `users` of four symbols over its every module and check of
# its amdgpu.ko with every export scheduled, with DWARF lines and without.
# Writes the result between the "dwarf-lines" markers of bench/results.md.
# Environment: KSUNSET, PLUGIN, KDIR, TSV, KSUNSET_BENCH_CACHE, RUNS, DBG
# (the -dbg package; default the newest 6.1 one; "none" skips that part).
set -eu
unset MAKEFLAGS MFLAGS MAKELEVEL || true
top=$(cd "$(dirname "$0")/.." && pwd)
: "${KSUNSET:=$top/build/ksunset}" "${PLUGIN:=$top/build/ksunset.so}" "${RUNS:=5}"
KDIR=${KDIR:-$(printf '%s\n' /usr/src/linux-headers-*-amd64 | sort -V | tail -n 1)}
TSV=${TSV:-$top/../shared/corpus/dkms-packages.tsv}
CACHE=${KSUNSET_BENCH_CACHE:-/var/cache/ksunset-bench}/dkms
W=$top/build/bench/dwarf
REL=${KDIR#/usr/src/linux-headers-}
export LC_ALL=C
say() { echo "dwarf-bench: $*" >&2; }

rm -rf "$W" && mkdir -p "$W" "$CACHE"
awk '{ print $2 }' "$KDIR/Module.symvers" | sort -u >"$W/exports"
{
	echo "What: $(head -n 1 "$W/exports")"
	tail -n +2 "$W/exports" | sed 's/^/ /'
	echo "When: 2030-01-01"
} >"$W/all.schedule"
KCF="-fplugin=$PLUGIN -fplugin-arg-ksunset-schedule=$W/all.schedule -fplugin-arg-ksunset-quiet"

# fetch PKG PREFIX: the package's module sources, unpacked once into the cache
fetch() {
	if ! ls -d "$CACHE/$1/usr/src/$2"* >/dev/null 2>&1; then
		rm -rf "$CACHE/$1" && mkdir -p "$CACHE/$1/deb"
		(cd "$CACHE/$1/deb" && apt-get download "$1" >/dev/null 2>&1) || return 1
		dpkg -x "$CACHE/$1"/deb/*.deb "$CACHE/$1" || return 1
	fi
	ls -d "$CACHE/$1/usr/src/$2"* | head -n 1
}

build() { # build DIR CMD KCFLAGS
	# shellcheck disable=SC2034 # S and K are for the eval'd command
	(cd "$1" && S=$1 K=$KDIR && eval "KCFLAGS=\"$3\" $2") >"$1.log" 2>&1
}

pairs=""
grep -v '^#' "$TSV" >"$W/list"
while IFS='	' read -r pkg prefix nko cmd; do
	[ -n "$pkg" ] || continue
	src=$(fetch "$pkg" "$prefix") || { say "$pkg: cannot fetch"; continue; }
	cmd=$(echo "$cmd" | sed "s/<release>/$REL/g; s/ *(.*)\$//")
	cp -r "$src" "$W/plain-$pkg" && cp -r "$src" "$W/plug-$pkg"
	if ! build "$W/plain-$pkg" "$cmd" "" || ! build "$W/plug-$pkg" "$cmd" "$KCF"; then
		say "$pkg: does not build"; continue
	fi
	say "$pkg: built ($nko modules expected)"
	"$KSUNSET" check -j 1 --locations=plugin -s "$W/all.schedule" --format json \
		"$W/plug-$pkg" >"$W/$pkg.plugin.json" 2>/dev/null || true
	"$KSUNSET" check -j 1 --locations=dwarf -s "$W/all.schedule" --format json \
		"$W/plain-$pkg" >"$W/$pkg.dwarf.json" 2>/dev/null || true
	pairs="$pairs $pkg $W/$pkg.plugin.json $W/plug-$pkg $W/$pkg.dwarf.json $W/plain-$pkg"
done <"$W/list"
# shellcheck disable=SC2086
python3 "$top/bench/dwarf-compare.py" $pairs >"$W/agreement"

# timing: every plain build, lines from DWARF against none
# pair F G: RUNS runs of each of the shell functions F and G, one of F then
# one of G, so that the machine's speed drifting over the runs weighs on
# both alike; the median wall time of each, in seconds, on a line of its own
pair() {
	for _ in $(seq "$RUNS"); do
		for f in "$1" "$2"; do
			s=$(date +%s.%N)
			"$f" >/dev/null 2>&1 || true
			echo "$f $(echo "$(date +%s.%N) - $s" | bc)"
		done
	done >"$W/pair"
	for f in "$1" "$2"; do
		awk -v f="$f" '$1 == f { print $2 }' "$W/pair" | sort -n | sed -n "$(((RUNS + 1) / 2))p"
	done
}
plain_check() { "$KSUNSET" check -j 1 -s "$W/all.schedule" --locations=plugin "$W"/plain-*; }
lines_check() { "$KSUNSET" check -j 1 -s "$W/all.schedule" --locations=auto "$W"/plain-*; }
pair plain_check lines_check >"$W/times"
t0=$(sed -n 1p "$W/times")
t1=$(sed -n 2p "$W/times")
nko=$(find "$W"/plain-* -name '*.ko' | wc -l)

# The -dbg package: its modules' folder, or why not.
dbg_tree() {
	fetch="sh $top/scripts/fetch-debian.sh"
	pkg=${DBG:-$($fetch bookworm list 'linux-image-6\.1\.0-[0-9]+-amd64-dbg' 2>"$W/dbg.log" |
		tail -n 1)}
	[ "$pkg" != none ] || { echo "skipped (DBG=none)"; return 1; }
	[ -n "$pkg" ] || { echo "skipped: $(tail -n 1 "$W/dbg.log")"; return 1; }
	say "$pkg: fetching (860 MB the first time)"
	root=$($fetch bookworm get "$pkg" 2>"$W/dbg.log") ||
		{ echo "skipped: $(tail -n 1 "$W/dbg.log")"; return 1; }
	rel=${pkg#linux-image-}
	tree=$root/usr/lib/debug/lib/modules/${rel%-dbg}
	[ -d "$tree" ] || { echo "skipped: no $tree in $pkg"; return 1; }
	echo "$tree"
}

# users of four symbols over the whole tree; check of amdgpu.ko
dbg_part() {
	set -- nonseekable_open noop_llseek simple_read_from_buffer debugfs_create_file
	if ! tree=$(dbg_tree); then
		echo "Debian -dbg package: $tree"
		return
	fi
	n=$(find "$tree" -name '*.ko' | wc -l)
	say "${tree#*/modules/}: users over $n modules, amdgpu.ko, $RUNS runs each"
	"$KSUNSET" users "$@" -- "$tree" >"$W/users.txt" 2>/dev/null || true
	# shellcheck disable=SC2086 # $SYMS: the four symbols, an argument each
	plain_users() { "$KSUNSET" users --locations=plugin $SYMS -- "$tree"; }
	# shellcheck disable=SC2086
	lines_users() { "$KSUNSET" users --locations=auto $SYMS -- "$tree"; }
	# shellcheck disable=SC2086
	libdw_users() { KSUNSET_DWARF_READER=libdw "$KSUNSET" users --locations=auto $SYMS -- "$tree"; }
	SYMS="$*"
	pair plain_users lines_users >"$W/times"
	u0=$(sed -n 1p "$W/times")
	u1=$(sed -n 2p "$W/times")
	pair lines_users libdw_users >"$W/times"
	u2=$(sed -n 2p "$W/times")
	amd=$(find "$tree" -name amdgpu.ko | head -n 1)
	plain_amd() { "$KSUNSET" check -j 1 -s "$W/all.schedule" --locations=plugin "$amd"; }
	lines_amd() { "$KSUNSET" check -j 1 -s "$W/all.schedule" --locations=auto "$amd"; }
	libdw_amd() {
		KSUNSET_DWARF_READER=libdw "$KSUNSET" check -j 1 -s "$W/all.schedule" --locations=auto "$amd"
	}
	pair plain_amd lines_amd >"$W/times"
	a0=$(sed -n 1p "$W/times")
	a1=$(sed -n 2p "$W/times")
	pair lines_amd libdw_amd >"$W/times"
	a2=$(sed -n 2p "$W/times")
	echo "Debian's linux-image-${tree##*/}-dbg ($n modules with their DWARF), median of $RUNS"
	echo "runs each, with lines and without alternating:"
	printf -- '- users of %s over every module (%d users, %d source lines):\n' "$*" \
		"$(grep -c '	' "$W/users.txt")" "$(grep -c ': note: ' "$W/users.txt")"
	printf '  without lines %.2f s, with DWARF lines %.2f s (%.1fx; goal under 1 s);\n' "$u0" "$u1" \
		"$(echo "$u1 / $u0" | bc -l)"
	printf '  with libdwfl relocating every unit (KSUNSET_DWARF_READER=libdw) %.2f s;\n' "$u2"
	printf -- '- check of amdgpu.ko (%d MB) with every export scheduled, one thread:\n' \
		"$(($(wc -c <"$amd") / 1000000))"
	printf '  without lines %.2f s, with DWARF lines %.2f s (goal under 2 s);\n' "$a0" "$a1"
	printf '  with libdwfl relocating every unit (KSUNSET_DWARF_READER=libdw) %.2f s.\n' "$a2"
}
dbg_part >"$W/dbg"

{
	echo "<!-- dwarf-lines: written by bench/dwarf.sh -->"
	echo "### DWARF lines: $(grep -c . "$W/list") DKMS packages, $nko modules, every export scheduled"
	echo
	echo "Built without the plugin (lines from DWARF, \`--locations=dwarf\`) and with it"
	echo "(\`--locations=plugin\`), gcc $(gcc -dumpversion), headers $REL."
	echo
	sed 's/^  no location:/- no location:/' "$W/agreement"
	echo
	printf 'check of the plain builds, median of %s runs each (alternating), one thread:\n' "$RUNS"
	printf 'without lines %.2f s,\n' "$t0"
	printf 'with DWARF lines %.2f s (%.1fx; goal at most 3x).\n' "$t1" "$(echo "$t1 / $t0" | bc -l)"
	echo
	cat "$W/dbg"
	echo "<!-- /dwarf-lines -->"
} >"$W/section"
cat "$W/section"
. "$top/bench/section.sh"
put_section dwarf-lines "$W/section"
