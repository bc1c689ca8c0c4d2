#!/bin/sh
# make bench PARTS=target: check --target's forecast against the real
# builds of every DKMS package of Debian 12, bench/dkms-bookworm.tsv
# (bench/validate-target.sh; KSUNSET_CORPUS names another TSV), written between
# the "target-validation" markers of bench/target-validation.md, and the
# cost of each forecast against one real build of its package (wall and
# CPU, uncached, the same -j2) between the "target-cost" markers of
# bench/results.md.
set -eu
rc=0
top=$(cd "$(dirname "$0")/.." && pwd)
: "${KSUNSET:=$top/build/ksunset}"
W=$top/build/bench
mkdir -p "$W"
. "$top/bench/section.sh"
corpus=${KSUNSET_CORPUS:-$top/bench/dkms-bookworm.tsv}
[ -f "$corpus" ] || { echo "bench: no DKMS corpus at $corpus (KSUNSET_CORPUS)" >&2; exit 1; }
sh "$top/bench/validate-target.sh" "$corpus" -- "$KSUNSET" \
	>"$W/validation.md" || rc=$?
[ "$rc" -eq 77 ] && { echo "bench: the Debian archive cannot be reached: no validation" >&2; exit 0; }
[ "$rc" -eq 0 ] || exit "$rc"
{
	echo "<!-- target-validation: written by make bench PARTS=target ($(git -C "$top" rev-parse --short HEAD), $(date -u +%F)) -->"
	sed '/^| package | forecast wall s/,$d' "$W/validation.md"
	echo "<!-- /target-validation -->"
} >"$W/validation.section"
{
	echo "<!-- target-cost: written by make bench PARTS=target ($(git -C "$top" rev-parse --short HEAD), $(date -u +%F)) -->"
	echo "### check --target's forecast against one real build (goal: at most the same)"
	echo
	echo "Each package's forecast on bookworm-backports' 6.12 headers (uncached: the probes of"
	echo "all its units in one Kbuild run) against one real build of it there, both with -j2;"
	echo "wall and CPU seconds of every process, make and the compiler included."
	echo
	sed -n '/^| package | forecast wall s/,/^$/p' "$W/validation.md"
	echo "<!-- /target-cost -->"
} >"$W/cost.section"
put_section target-validation "$W/validation.section" "$top/bench/target-validation.md"
put_section target-cost "$W/cost.section"
cat "$W/validation.md"
