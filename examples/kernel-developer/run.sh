#!/bin/sh
# The 2005 story, told with ksunset. A kernel developer sees that no in-tree
# module calls do_settimeofday64() and wants to unexport it; back then the
# patch went in and was withdrawn, because out-of-tree ARM RTC drivers still
# called it and nobody could see them. Here: find the candidate (unused),
# see who still depends on it (users), schedule it a year out instead
# (mark), check the schedule (lint), watch the out-of-tree driver get told
# (plugin and check), and a year later find out whether the job can be
# finished (lint --modules).
#
#   KSUNSET  the ksunset program (default: ksunset on PATH)
#   KDIR     kernel build dir (default: the newest /usr/src/linux-headers-*-amd64)
#   TODAY    the date the story starts (default: today); SOURCE_DATE_EPOCH is
#            set from it, so the compiler plugin agrees
#   WORK     where to build (default: a new temporary folder)
#
# The schedule lives where a kernel tree keeps it: KDIR/ksunset.schedule,
# beside KDIR/Module.symvers, where `ksunset check --kernel-dir KDIR`,
# `ksunset make -C KDIR`, `ksunset --cflags --kernel-dir KDIR` and
# `ksunset lint/mark --kernel-dir KDIR` find it with no -s. So as not to
# write into the installed headers, this script uses WORK/kernel as the
# build dir for ksunset: Module.symvers linked from KDIR, its own schedule.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
KSUNSET=${KSUNSET:-ksunset}
KDIR=${KDIR:-$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V | tail -n 1)}
TODAY=${TODAY:-$(date -u +%F)}
WORK=${WORK:-$(mktemp -d)}
SOURCE_DATE_EPOCH=$(date -u -d "$TODAY" +%s)
export SOURCE_DATE_EPOCH
unset KSUNSET_SCHEDULE	# else it would win over KDIR/ksunset.schedule
[ -f "$KDIR/Module.symvers" ] || { echo "no kernel build dir (set KDIR)" >&2; exit 2; }
mkdir -p "$WORK"
cd "$WORK"

# show CMD...: the command, then its output and exit status, paths relative to WORK
show() {
	echo "\$ $*" | sed "s|$KSUNSET|ksunset|"
	st=0
	"$@" >out 2>&1 || st=$?
	sed "s|$WORK/||g" out
	[ "$st" -eq 0 ] || echo "(exit $st)"
	echo
}
build() { # build SRC DEST [KCFLAGS]
	rm -rf "$2" && cp -r "$1" "$2"
	make -C "$KDIR" M="$WORK/$2" KCFLAGS="${3:-}" modules >"$2.log" 2>&1 ||
		{ cat "$2.log" >&2; exit 2; }
}

rm -rf kernel && mkdir kernel && ln -s "$KDIR/Module.symvers" kernel/Module.symvers
build "$here/in-tree" in-tree
build "$here/../rtc-legacy" vendor

echo "== 1. No in-tree module imports do_settimeofday64: a removal candidate"
echo "\$ ksunset unused -i kernel/Module.symvers --module vmlinux in-tree | grep do_settimeofday64"
"$KSUNSET" unused -i kernel/Module.symvers --module vmlinux in-tree >unused 2>unused.err
grep '^do_settimeofday64	' unused
cat unused.err
echo
echo "== 2. But an out-of-tree RTC driver still calls it (the line from its DWARF)"
show "$KSUNSET" users do_settimeofday64 -- vendor

echo "== 3. So it is not unexported now: it is scheduled a year out"
show "$KSUNSET" mark do_settimeofday64 --kernel-dir kernel -i kernel/Module.symvers \
	--replace "no replacement: register with the rtc class instead" \
	--why "No in-tree modular user; drivers set the clock through the rtc class." \
	--who "A. Maintainer <maint@example.org>"

echo "== 4. The schedule is checked against the kernel's exports"
show "$KSUNSET" lint --kernel-dir kernel --list

echo "== 5. The vendor's next build says when, and where"
build "$here/../rtc-legacy" vendor "$("$KSUNSET" --cflags --kernel-dir kernel)"
grep -E 'warning|note' vendor.log | sed "s|$WORK/||g"
echo
show "$KSUNSET" users do_settimeofday64 -- vendor
show "$KSUNSET" check --kernel-dir kernel -i kernel/Module.symvers vendor

echo "== 6. A year later: the vendor has not moved, so lint says to finish the job"
echo "   (had no module still needed it, lint would also say it is ready to go)"
show "$KSUNSET" lint --kernel-dir kernel --modules in-tree --modules vendor \
	--today "$(date -u -d "$TODAY + 1 year + 1 day" +%F)"
