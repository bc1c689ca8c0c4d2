#!/bin/sh
# make install into a temporary DESTDIR, a module built with the installed
# files only, make uninstall; and the man pages lint clean.
. "$(dirname "$0")/lib.sh"
R="$TMP/root"
P=/usr/local

for m in "$TOP"/doc/*.1 "$TOP"/doc/*.5; do
	groff -ww -z -man "$m" >"$TMP/groff" 2>&1
	expect_eq "$(basename "$m") renders without warnings" "$(cat "$TMP/groff")" ""
done

make -s -C "$TOP" install DESTDIR="$R" PREFIX=$P >"$TMP/log" 2>&1
expect_eq "make install: exit 0" "$?" 0
for f in bin/ksunset lib/ksunset/ksunset.so include/ksunset/record.h include/ksunset/sunset.h \
	share/man/man1/ksunset.1 share/man/man1/ksunset-plugin.1 share/man/man5/ksunset.schedule.5 \
	share/man/man5/ksunset.migrations.5 share/ksunset/migrations/6.1-6.12.migrations \
	lib/pkgconfig/ksunset.pc share/bash-completion/completions/ksunset; do
	test -f "$R$P/$f" && pass "installed $f" || fail "installed $f"
done
test -d "$R$P/share/ksunset/schedule.d" && pass "schedule.d under share" || fail "schedule.d under share"
test -d "$R/etc/ksunset/schedule.d" && pass "schedule.d under /etc" || fail "schedule.d under /etc"

KS="$R$P/bin/ksunset"
expect_eq "installed program finds the installed plugin" "$(env -u KSUNSET_PLUGIN "$KS" --plugin-path)" \
	"$R$P/lib/ksunset/ksunset.so"
expect_eq "pkg-config plugin variable" \
	"$(PKG_CONFIG_PATH="$R$P/lib/pkgconfig" pkg-config --define-variable=prefix="$R$P" --variable=plugin ksunset)" \
	"$R$P/lib/ksunset/ksunset.so"

K=$(kdir)
if [ -n "$K" ]; then
	rm -rf "$TMP/mod" && cp -r "$TOP/examples/rtc-legacy" "$TMP/mod"
	(cd "$TMP/mod" && env -u KSUNSET_PLUGIN "$KS" make -s "$TOP/examples/schedules/ksunset.schedule" \
		--today 2026-12-03 -C "$K" M="$TMP/mod") >"$TMP/out" 2>"$TMP/err"
	expect_eq "installed ksunset make: exit 0" "$?" 0
	expect_grep "installed plugin warned" "$TMP/err" "warning: 'do_settimeofday64' is scheduled for removal"
	expect_grep "installed checker found the location" "$TMP/out" "rtc-legacy-main.c:25:16: warning: call to 'do_settimeofday64'"
else
	skip "no kernel headers: installed build not tried"
fi

make -s -C "$TOP" install-gcc-plugin DESTDIR="$R" >"$TMP/log" 2>&1
G=$(gcc -print-file-name=plugin)
test -f "$R$G/ksunset.so" && pass "install-gcc-plugin puts it in GCC's plugin dir" || fail "install-gcc-plugin"

make -s -C "$TOP" uninstall DESTDIR="$R" PREFIX=$P >"$TMP/log" 2>&1
expect_eq "make uninstall leaves no file" "$(find "$R" -type f | wc -l)" 0
exit 0
