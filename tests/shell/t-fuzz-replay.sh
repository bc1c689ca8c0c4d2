#!/bin/sh
# The fuzz targets (tests/fuzz) replayed without libFuzzer on the inputs
# that once failed them (tests/data/fuzz/TARGET/) and on the small text
# seeds: each must run through with its assertions holding and, in the
# sanitized build, no sanitizer report.
. "$(dirname "$0")/lib.sh"
R=$(dirname "$KSUNSET")/fuzz
for t in schedule symvers record module; do
	set -- "$TOP"/tests/data/fuzz/$t/* "$TOP"/tests/fuzz/seeds/$t/*
	[ $t = schedule ] && set -- "$@" "$TOP"/tests/data/*.schedule "$TOP"/tests/data/schedules/*
	inputs=""
	for f in "$@"; do [ -f "$f" ] && inputs="$inputs $f"; done
	if [ ! -x "$R/replay-$t" ]; then fail "$t: no replay program $R/replay-$t"; continue; fi
	# shellcheck disable=SC2086
	"$R/replay-$t" $inputs >"$TMP/out" 2>&1
	rc=$?
	expect_eq "$t: replay of $(echo $inputs | wc -w) inputs exits 0" "$rc" 0
	expect_eq "$t: no sanitizer report or failed assertion" \
		"$(grep -c 'Sanitizer\|runtime error\|Assertion' "$TMP/out")" 0
done
exit 0
