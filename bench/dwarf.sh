#!/bin/sh
# make bench, DWARF part: the shared DKMS packages (../shared/corpus/
# dkms-packages.tsv, fetched with apt-get download, unpacked with dpkg -x)
# built without the plugin and with it, against a schedule of every export.
# Measures how many of the plugin's source lines the DWARF of the plain
# build reproduces (bench/dwarf-compare.py classifies the rest), and what
# lines cost: check of the plain builds with DWARF against without.
# Writes the result between the "dwarf-lines" markers of bench/results.md.
# Environment: KSUNSET, PLUGIN, KDIR, TSV, KSUNSET_BENCH_CACHE, RUNS.
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
secs() { # secs ARGS...: the median wall time of RUNS checks, in seconds
	for _ in $(seq "$RUNS"); do
		s=$(date +%s.%N)
		"$KSUNSET" check -j 1 -s "$W/all.schedule" "$@" "$W"/plain-* >/dev/null 2>&1 || true
		echo "$(date +%s.%N) - $s" | bc
	done | sort -n | sed -n "$(((RUNS + 1) / 2))p"
}
t0=$(secs --locations=plugin)
t1=$(secs --locations=auto)
nko=$(find "$W"/plain-* -name '*.ko' | wc -l)

{
	echo "<!-- dwarf-lines: written by bench/dwarf.sh -->"
	echo "### DWARF lines: $(grep -c . "$W/list") DKMS packages, $nko modules, every export scheduled"
	echo
	echo "Built without the plugin (lines from DWARF, \`--locations=dwarf\`) and with it"
	echo "(\`--locations=plugin\`), gcc $(gcc -dumpversion), headers $REL."
	echo
	sed 's/^  no location:/- no location:/' "$W/agreement"
	echo
	printf 'check of the plain builds, median of %s, one thread: without lines %.2f s,\n' "$RUNS" "$t0"
	printf 'with DWARF lines %.2f s (%.1fx; goal at most 3x).\n' "$t1" "$(echo "$t1 / $t0" | bc -l)"
	echo "<!-- /dwarf-lines -->"
} >"$W/section"
cat "$W/section"
R=$top/bench/results.md
if grep -q '^<!-- dwarf-lines' "$R"; then
	awk -v f="$W/section" '/^<!-- dwarf-lines/ { while ((getline l < f) > 0) print l; skip = 1; next }
		/^<!-- \/dwarf-lines/ { skip = 0; next } !skip' "$R" >"$R.new" && mv "$R.new" "$R"
else
	{ echo; cat "$W/section"; } >>"$R"
fi
