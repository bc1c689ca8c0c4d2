#!/bin/sh
# The demo behind `make demo`: the bundled out-of-tree module
# (examples/rtc-legacy) built against the installed kernel headers with the
# ksunset plugin, the post-build report, then the same in strict mode as
# vendor CI would run it.
set -u
: "${KSUNSET:=ksunset}"
top=$(cd "$(dirname "$0")/.." && pwd)
sched="$top/examples/schedules/ksunset.schedule"
kdir=${KDIR:-/lib/modules/$(uname -r)/build}
[ -d "$kdir" ] || kdir=$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V | tail -n 1)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$top/examples/rtc-legacy" "$work/rtc-legacy"

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "1. The schedule: $sched"
"$KSUNSET" lint -s "$sched" && echo "(lint: clean)"
"$KSUNSET" lint --list -s "$sched"

step "2. An out-of-tree module built with the plugin: ksunset make -C $kdir M=..."
echo "   compile-time warnings come from GCC, the report after the build from ksunset check"
(cd "$work/rtc-legacy" && "$KSUNSET" make -s "$sched" -C "$kdir" M="$work/rtc-legacy" modules 2>&1 |
	grep -v '^make\|^  [A-Z]\|^Skipping BTF')
echo "-> exit status $? (warnings only)"

step "3. Vendor CI: the same build with --strict fails"
(cd "$work/rtc-legacy" && "$KSUNSET" make -s "$sched" --strict --quiet -C "$kdir" M="$work/rtc-legacy" modules \
	>"$work/strict.log" 2>&1)
rc=$?
grep '^ERROR\|checked' "$work/strict.log"
echo "-> exit status $rc: the CI job fails"

step "4. The same findings for machines: ksunset check --format json"
"$KSUNSET" check -s "$sched" -i "$kdir/Module.symvers" --format json \
	"$work/rtc-legacy/rtc-legacy.ko" 2>/dev/null | head -n 30
[ "$rc" -eq 1 ]
