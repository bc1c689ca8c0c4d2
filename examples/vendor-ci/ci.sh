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
# and commit it; from then on only new uses fail the job. A use accepted
# in the source, with KSUNSET_ACCEPT("reason") in its function
# (<ksunset/sunset.h>), passes too; neither accepts an overdue use or one
# of a symbol the kernel no longer exports.
#
# KSUNSET_SYMVERS=FILE checks against another kernel's Module.symvers
# (the kernel the module must load on next) instead of KERNEL-BUILD-DIR's:
# a use of a symbol that FILE no longer exports fails the job.
# SOURCE_DATE_EPOCH fixes today's date, as for every ksunset command.
set -u
mod=$(cd "$1" && pwd) kdir=$2 sched=$3 baseline=${4:-$mod/ksunset.baseline}
symvers=${KSUNSET_SYMVERS:-$kdir/Module.symvers}
: "${KSUNSET:=ksunset}"
set -- --strict --error-within 90 --source-root "$mod"
[ -f "$baseline" ] && set -- "$@" --baseline "$baseline"

# the build, with compile-time warnings and the text report in the log
"$KSUNSET" make -s "$sched" "$@" -C "$kdir" M="$mod" modules
status=$?

# another kernel's Module.symvers: the build passed against KERNEL-BUILD-DIR,
# the gate is the check against FILE (its text report in the log)
if [ "$status" -eq 0 ] && [ -n "${KSUNSET_SYMVERS:-}" ]; then
	"$KSUNSET" check -s "$sched" -i "$symvers" "$@" "$mod/modules.order"
	status=$?
fi

# the same findings as SARIF, whatever the status
"$KSUNSET" check -s "$sched" -i "$symvers" "$@" --format sarif \
	-o "$mod/ksunset.sarif" "$mod/modules.order" 2>/dev/null
echo "ksunset: SARIF report in $mod/ksunset.sarif; exit status $status"
exit "$status"
