#!/bin/sh
# Vendor CI for an out-of-tree module: build with the ksunset plugin,
# fail on any use of a scheduled export that is not in the accepted
# baseline, and leave a SARIF report for code-scanning upload.
#
#   examples/vendor-ci/ci.sh MODULE-DIR KERNEL-BUILD-DIR SCHEDULE [BASELINE]
#
# First run: create the baseline of today's accepted uses from a build
# with the plugin, so that each use is keyed by file and function:
#   ksunset make -s SCHEDULE --source-root MODULE-DIR \
#       --write-baseline MODULE-DIR/ksunset.baseline -C KERNEL-BUILD-DIR M=MODULE-DIR
# and commit it; from then on only new uses fail the job.
set -u
mod=$(cd "$1" && pwd) kdir=$2 sched=$3 baseline=${4:-$mod/ksunset.baseline}
: "${KSUNSET:=ksunset}"
set -- --strict --error-within 90 --source-root "$mod"
[ -f "$baseline" ] && set -- "$@" --baseline "$baseline"

# the build, with compile-time warnings and the text report in the log
"$KSUNSET" make -s "$sched" "$@" -C "$kdir" M="$mod" modules
status=$?

# the same findings as SARIF, whatever the status
"$KSUNSET" check -s "$sched" -i "$kdir/Module.symvers" "$@" --format sarif \
	-o "$mod/ksunset.sarif" "$mod/modules.order" 2>/dev/null
echo "ksunset: SARIF report in $mod/ksunset.sarif; exit status $status"
exit "$status"
