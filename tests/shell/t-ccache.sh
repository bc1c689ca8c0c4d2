#!/bin/sh
# A changed schedule must not replay stale warnings from ccache: ksunset
# make names the schedules in CCACHE_EXTRAFILES, so the cache misses.
. "$(dirname "$0")/lib.sh"
K=$(kdir)
if [ -z "$K" ]; then skip "no kernel headers in /usr/src"; exit 0; fi
if ! command -v ccache >/dev/null; then skip "ccache is not installed"; exit 0; fi
export CCACHE_DIR="$TMP/ccache"
S="$TMP/my.schedule"
grep -v '^What:    simple_strtoul$' "$TOP/tests/data/check.schedule" |
	sed '/^When:    2026-12-20$/,/^$/d' >"$S"

build() {
	make -s -C "$K" M="$TMP/legacy" clean >/dev/null 2>&1
	(cd "$TMP/legacy" && "$KSUNSET" make -s "$S" --today 2026-01-01 -C "$K" M="$TMP/legacy" \
		CC="ccache gcc") >"$TMP/out" 2>"$TMP/err"
}

rm -rf "$TMP/legacy" && cp -r "$TOP/tests/modules/legacy" "$TMP/legacy"
build
expect_eq "first build without simple_strtoul scheduled" "$(grep -c "'simple_strtoul'" "$TMP/err")" 0
ccache -z >/dev/null
build
hits=$(ccache --print-stats 2>/dev/null | sed -n 's/^direct_cache_hit\t//p; s/^preprocessed_cache_hit\t//p' | paste -sd+ | bc)
[ "${hits:-0}" -gt 0 ] && pass "same schedule: ccache hits ($hits)" || fail "same schedule: ccache hits (${hits:-none})"
expect_grep "same schedule: cached warnings replayed" "$TMP/err" "'do_settimeofday64' is scheduled"

cat >>"$S" <<'EOS'

What:    simple_strtoul
When:    2027-06-01
Replace: kstrtoul
Why:     Added after the first build.
Who:     T. Est <t@example.org>
EOS
build
expect_grep "changed schedule: new warning, not a stale replay" "$TMP/err" \
	"warning: 'simple_strtoul' is scheduled for removal on 2027-06-01"
exit 0
