#!/bin/sh
# make bench PARTS=fix: what to write instead, measured.
#  - ksunset fix against what the maintainers wrote: bench/validate-target.sh
#    with KSUNSET_VALIDATE_FIX=1 on the packages of the DKMS corpus whose
#    6.12 build fails (KSUNSET_VALIDATE_ONLY picks others), written between
#    the "fix-validation" markers of bench/fix-validation.md;
#  - the cost of reading the shipped migrations: a cached forecast of
#    tests/kbuild/breaks with them against one with a migrations file of no
#    entries (medians of RUNS runs each, default 5; goal at most +10%);
#  - mining Debian's linux-source-6.1 and -6.12 (.c and .h only, fetched
#    and unpacked under build/bench) with scripts/migrations.sh, wall and
#    CPU seconds on this machine; both between the "migrations-cost" markers
#    of bench/results.md.
# FIX_PARTS picks among "validation cost" (default: both).
set -eu
: "${FIX_PARTS:=validation cost}"
top=$(cd "$(dirname "$0")/.." && pwd)
: "${KSUNSET:=$top/build/ksunset}" "${PLUGIN:=$top/build/ksunset.so}" "${RUNS:=5}"
W=$top/build/bench/fix
mkdir -p "$W"
. "$top/bench/section.sh"
fetch=$top/scripts/fetch-debian.sh
K=$(ls -d /usr/src/linux-headers-*-amd64 | sort -V | tail -1)
H=$("$fetch" bookworm-backports headers \
	"$("$fetch" bookworm-backports list 'linux-headers-6\.12\.[0-9]+\+deb12-amd64' | tail -1)") ||
	{ echo "bench: the Debian archive cannot be reached: no fix bench" >&2; exit 0; }
rev=$(git -C "$top" rev-parse --short HEAD)

# --- ksunset fix against the maintainers' newer versions
case " $FIX_PARTS " in *" validation "*)
corpus=${KSUNSET_CORPUS:-$top/bench/dkms-bookworm.tsv}
only=${KSUNSET_VALIDATE_ONLY:-$(awk -F'|' '$4 ~ /fails/ { gsub(/ /, "", $2); print $2 }' \
	"$top/bench/target-validation.md" | paste -sd, -)}
KSUNSET_VALIDATE_FIX=1 KSUNSET_VALIDATE_ONLY=$only \
	sh "$top/bench/validate-target.sh" "$corpus" -- "$KSUNSET" >"$W/validation.md"
{
	echo "<!-- fix-validation: written by make bench PARTS=fix ($rev, $(date -u +%F)) -->"
	sed -n '/^| package | break lines/,/^Goals: at least 75%/p' "$W/validation.md"
	echo
	echo "Each fix, and whether the maintainers' newer version has the same line:"
	echo
	grep '^- [^ ]*: fix ' "$W/validation.md" || echo "(none)"
	echo "<!-- /fix-validation -->"
} >"$W/validation.section"
put_section fix-validation "$W/validation.section" "$top/bench/fix-validation.md"
cat "$W/validation.section"
;; esac
case " $FIX_PARTS " in *" cost "*) ;; *) exit 0 ;; esac

# --- reading the migrations: a cached forecast with and without them
b=$W/breaks
rm -rf "$b" && cp -r "$top/tests/kbuild/breaks" "$b"
make -C "$K" M="$b" modules KCFLAGS="-fplugin=$PLUGIN -fplugin-arg-ksunset-api" >"$b.log" 2>&1
printf 'From: 6.1\nTo: 6.12\n' >"$W/none.migrations"
shipped=$top/share/migrations/6.1-6.12.migrations
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
timed() {	# seconds of one run of the forecast with migrations file $1
	s=$(date +%s.%N)
	"$KSUNSET" check --target "$H" --migrations "$1" "$b/breaks.ko" >/dev/null 2>&1 || :
	e=$(date +%s.%N)
	echo "$e - $s" | bc
}
timed "$shipped" >/dev/null	# the probes cached
i=0 with="" without=""
while [ "$i" -lt "$RUNS" ]; do
	with="$with $(timed "$shipped")" without="$without $(timed "$W/none.migrations")"
	i=$((i + 1))
done
mw=$(echo "$with" | tr ' ' '\n' | grep . | median)
mo=$(echo "$without" | tr ' ' '\n' | grep . | median)
ratio=$(echo "scale=3; $mw / $mo" | bc)

# --- mining Debian's 6.1 and 6.12 sources
src=$W/src
for p in "bookworm linux-source-6.1" "bookworm-backports linux-source-6.12"; do
	set -- $p
	[ -d "$src/$2" ] && continue
	root=$("$fetch" -d "$W/debian" "$1" get "$2" | tail -1)
	mkdir -p "$src/$2"
	tar -xJf "$(ls "$root"/usr/src/"$2".tar.xz)" -C "$src/$2" --strip-components=1 \
		--wildcards '*.c' '*.h'
done
mine=$( { /usr/bin/time -f '%e %U %S' sh "$top/scripts/migrations.sh" -o "$W/mined.migrations" \
	"$src/linux-source-6.1" "$src/linux-source-6.12"; } 2>&1 | tail -1)
set -- $mine
mwall=$1 mcpu=$(echo "$2 + $3" | bc)
same=$(cmp -s "$W/mined.migrations" "$shipped" && echo "the shipped file, byte for byte" ||
	echo "NOT the shipped file")
{
	echo "<!-- migrations-cost: written by make bench PARTS=fix ($rev, $(date -u +%F)) -->"
	echo "### What to write instead: reading and mining the migrations"
	echo
	echo "A cached forecast of tests/kbuild/breaks on 6.12 with the shipped 6.1 -> 6.12"
	echo "migrations against one with a file of no entries (median of $RUNS runs each):"
	echo "$mw s against $mo s, ratio $ratio (goal: at most 1.10)."
	echo
	echo "scripts/migrations.sh on Debian's linux-source-6.1 and linux-source-6.12 (.c and .h"
	echo "only): $mwall s wall, $mcpu s CPU on $(nproc) cores; it writes $same."
	echo "<!-- /migrations-cost -->"
} >"$W/cost.section"
put_section migrations-cost "$W/cost.section"
cat "$W/cost.section"
