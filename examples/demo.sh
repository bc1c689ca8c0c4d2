#!/bin/sh
# The demo behind `make demo`: lint the bundled schedule and show what it
# schedules and when.
set -eu
: "${KSUNSET:=ksunset}"
top=$(cd "$(dirname "$0")/.." && pwd)
sched="$top/examples/schedules/ksunset.schedule"

echo "== ksunset lint $sched"
"$KSUNSET" lint -s "$sched" && echo "schedule is clean"
echo
echo "== scheduled removals, with the time left"
"$KSUNSET" lint --list -s "$sched"
