#!/bin/sh
# The Debian packages: dpkg-buildpackage from a clean copy of the sources
# leaves nothing that .gitignore does not cover, lintian finds no error, the
# plugin's package depends on the GCC release it was built for; installed
# with apt-get, the bundled example runs from the installed paths alone;
# purged, nothing is left.
. "$(dirname "$0")/lib.sh"
if [ "$(id -u)" -ne 0 ]; then skip "not root: the packages are not built and installed"; exit 0; fi
for t in dpkg-buildpackage dh lintian git; do
	if ! command -v $t >/dev/null 2>&1; then
		skip "no $t (scripts/install-deps.sh installs debhelper, dpkg-dev, lintian)"
		exit 0
	fi
done
if ! git -C "$TOP" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	skip "not a git checkout: no clean copy of the sources to build from"
	exit 0
fi
if dpkg-query -W -f='${Status}' ksunset 2>/dev/null | grep -q 'ok installed'; then
	skip "ksunset is installed as a package already: not replaced or removed by a test"
	exit 0
fi

# a clean copy: the tracked files as they are now, under git so that what
# the build leaves behind shows in git status
S="$TMP/src/ksunset"
mkdir -p "$S"
git -C "$TOP" ls-files -z | (cd "$TOP" && xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh) |
	(cd "$TOP" && tar --null -T - -cf -) | tar -xf - -C "$S"
(cd "$S" && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm src) ||
	fail "clean copy under git"

(cd "$S" && DEB_BUILD_OPTIONS=parallel=2 dpkg-buildpackage -us -uc -b) >"$TMP/build.log" 2>&1
rc=$?
expect_eq "dpkg-buildpackage -us -uc -b: exit 0" "$rc" 0
[ "$rc" -eq 0 ] || tail -n 30 "$TMP/build.log" | sed 's/^/  | /'
expect_grep "the unit tests ran in the build" "$TMP/build.log" "100%: Checks:"
git -C "$S" status --porcelain --ignored=no >"$TMP/status"
expect_eq "the build leaves no file that .gitignore misses" "$(cat "$TMP/status")" ""
git -C "$S" status --porcelain --ignored >"$TMP/ignored"
expect_grep "the build's products are in build/" "$TMP/ignored" "!! build/"

D="$TMP/src"
PROG=$(ls "$D"/ksunset_*.deb 2>/dev/null) PLUG=$(ls "$D"/ksunset-gcc-plugin_*.deb 2>/dev/null)
if [ -z "$PROG" ] || [ -z "$PLUG" ]; then fail "both packages built"; exit 1; fi
pass "both packages built"

lintian -I --pedantic --fail-on error "$D"/ksunset_*.changes >"$TMP/lintian" 2>&1
expect_eq "lintian: no error" "$?" 0
expect_eq "lintian: no E: line" "$(grep -c '^E:' "$TMP/lintian")" 0
sed 's/^/  lintian | /' "$TMP/lintian"

major=$(gcc -dumpversion) release=$(gcc -dumpfullversion)
expect_grep "the plugin depends on the gcc-N it was built for" \
	"$(dpkg-deb -f "$PLUG" Depends >"$TMP/dep"; echo "$TMP/dep")" "gcc-$major (>= $release), gcc-$major (<<"
dpkg-deb -f "$PLUG" Description >"$TMP/desc"
expect_grep "its description says so" "$TMP/desc" "does not load in"
dpkg-deb -c "$PROG" >"$TMP/list"
for f in ./usr/bin/ksunset ./usr/include/ksunset/sunset.h ./usr/share/man/man1/ksunset.1.gz \
	./usr/share/man/man5/ksunset.schedule.5.gz ./etc/ksunset/schedule.d/ \
	/pkgconfig/ksunset.pc ./usr/share/doc/ksunset/examples/rtc-legacy/rtc-legacy-main.c \
	./usr/share/bash-completion/completions/ksunset; do
	expect_grep "ksunset ships $f" "$TMP/list" "$f"
done

export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q --no-install-recommends "$PROG" "$PLUG" >"$TMP/apt.log" 2>&1
rc=$?
expect_eq "apt-get install ./ksunset*.deb: exit 0" "$rc" 0
[ "$rc" -eq 0 ] || { sed 's/^/  | /' "$TMP/apt.log" | tail -n 20; exit 1; }

# from here on, only installed files: no KSUNSET_PLUGIN, nothing of build/
KS=/usr/bin/ksunset
unset KSUNSET_PLUGIN
expect_eq "the program finds the packaged plugin" "$($KS --plugin-path)" /usr/lib/ksunset/ksunset.so
expect_eq "pkg-config names it" "$(pkg-config --variable=plugin ksunset)" /usr/lib/ksunset/ksunset.so
printf 'What: do_settimeofday64\nWhen: 2027-09-01\n' >"$TMP/one.schedule"
printf 'struct timespec64;\nint do_settimeofday64(const struct timespec64 *);\nint f(void) { return do_settimeofday64(0); }\n' \
	>"$TMP/use.c"
gcc -fplugin=ksunset -fplugin-arg-ksunset-schedule="$TMP/one.schedule" -c -o "$TMP/use.o" "$TMP/use.c" \
	>"$TMP/gcc.log" 2>&1
expect_grep "gcc -fplugin=ksunset finds it by name" "$TMP/gcc.log" "use.c:3:22: warning: 'do_settimeofday64' is scheduled"
man -w ksunset-plugin >/dev/null 2>&1 && pass "man ksunset-plugin" || fail "man ksunset-plugin"
for p in ksunset ksunset-plugin ksunset.schedule; do
	zcat "$(man -w "$p" 2>/dev/null)" >"$TMP/page" 2>/dev/null
	expect_grep "man $p: installed" "$TMP/page" ".TH"
	expect_no_grep "man $p: names the installed paths, not /usr/local" "$TMP/page" "/usr/local/"
done
expect_grep "man ksunset.schedule: the packaged schedule folder" "$TMP/page" "/usr/share/ksunset/schedule.d/"

K=$(kdir)
if [ -n "$K" ]; then
	EX=/usr/share/doc/ksunset/examples
	(cd "$TMP" && KDIR="$K" KSUNSET=$KS sh "$EX/demo.sh") >"$TMP/demo" 2>&1
	expect_eq "installed demo: exit 0 (its strict step fails, as it should)" "$?" 0
	expect_grep "installed demo: the plugin warned" "$TMP/demo" "warning: 'do_settimeofday64' is scheduled for removal"
	expect_grep "installed demo: the check placed the use" "$TMP/demo" \
		"rtc-legacy-main.c:25:16: warning: call to 'do_settimeofday64'"
	expect_grep "installed demo: strict mode fails" "$TMP/demo" "the CI job fails"
	grep -qF "$(cd "$TOP" && pwd)/" "$TMP/demo" && fail "installed demo: no path of the source tree" ||
		pass "installed demo: no path of the source tree"
else
	skip "no kernel headers: the installed example was not built"
fi

dpkg --purge ksunset-gcc-plugin ksunset >"$TMP/purge.log" 2>&1
expect_eq "dpkg --purge: exit 0" "$?" 0
left=""
for f in /usr/bin/ksunset /usr/lib/ksunset "$(gcc -print-file-name=plugin)/ksunset.so" /etc/ksunset \
	/usr/share/doc/ksunset; do
	[ -e "$f" ] || [ -L "$f" ] && left="$left $f"
done
expect_eq "purged: nothing left" "$left" ""
exit 0
