#!/bin/sh
# Validation of check --target against real builds (issue 14, item 6):
# each DKMS package of /work/shared/corpus-style dkms-packages.tsv is built
# against Debian 12's 6.1 headers with the plugin (with its api argument:
# names the source writes without importing them count too) and the
# schedule of `ksunset diff 6.1 -> 6.12`, forecast with check --target on
# bookworm-backports' 6.12 headers, then really built against those
# headers (a package that builds no module against 6.1 gets a row saying
# so and nothing more). Every name in an "implicit declaration of
# function 'X'", "'X' undeclared" or modpost error of the real build that
# the forecast concerns must have been forecast as a source change, and no
# name forecast as "rebuild" may appear there; other compile errors
# (changed structures and prototypes) are counted as what an export
# checker cannot see. Prints a Markdown table.
#
#   bench/validate-target.sh TSV [KSUNSET]
set -u
LC_ALL=C
export LC_ALL
top=$(cd "$(dirname "$0")/.." && pwd)
tsv=$1
ks=${2:-$top/build/ksunset}
fetch=$top/scripts/fetch-debian.sh
K=$(ls -d /usr/src/linux-headers-*-amd64 | sort -V | tail -1)
H=$("$fetch" bookworm-backports headers \
	"$("$fetch" bookworm-backports list 'linux-headers-6\.12\.[0-9]+\+deb12-amd64' | tail -1)") || exit 77
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
"$ks" diff "$K" "$H" --schedule-out "$w/next.schedule" >/dev/null 2>&1 || exit 1
cflags="$("$ks" --cflags -s "$w/next.schedule") -fplugin-arg-ksunset-api"

# build KDIR S CMD LOG: the tsv's build command with K and S set
build() {
	(cd "$2" && K=$1 S=$2 && eval "$(echo "$3" | sed 's/<release>/$(basename $K | sed s,linux-headers-,,)/; s/ *(.*)$//')") >"$4" 2>&1
}

echo "| package | .ko (6.1) | forecast: rebuild / source-change / unknown | forecast source-change names | 6.12 build | export or written names in 6.12 errors | forecast agrees | other 6.12 errors (outside an export checker) |"
echo "|---|---|---|---|---|---|---|---|"
grep -v '^#' "$tsv" | while IFS='	' read -r pkg prefix nko cmd; do
	root=$("$fetch" bookworm get "$pkg" 2>/dev/null) || { echo "| $pkg | fetch failed |||||"; continue; }
	src=$(ls -d "$root/usr/src/$prefix"* | tail -1)
	rm -rf "$w/a" "$w/b" && cp -r "$src" "$w/a" && cp -r "$src" "$w/b"
	KCFLAGS=$cflags build "$K" "$w/a" "$cmd" "$w/a.log"
	kos=$(find "$w/a" -name '*.ko' | wc -l)
	# nothing to forecast from: such a package is left out of the count
	if [ "$kos" -eq 0 ]; then
		printf '| %s | none: does not build on 6.1 (%s) |||||||\n' "$pkg" \
			"$(grep -m1 'error:' "$w/a.log" | sed 's|^.*/||; s/|/\\|/g' | cut -c1-100)"
		continue
	fi
	# the package's own exports, as modpost takes them (KBUILD_EXTRA_SYMBOLS)
	own=$(find "$w/a" -name Module.symvers -size +0 | sed 's/^/-i /')
	"$ks" check --target "$H" $own --format json $(find "$w/a" -name '*.ko') 2>/dev/null |
		python3 -c 'import json,sys
for f in json.load(sys.stdin)["findings"]:
    for n in (f.get("written_as") or f["symbol"]).split(", "):
        print(f["remedy"], n, f["symbol"])' | sort -u >"$w/forecast"
	if build "$H" "$w/b" "$cmd" "$w/b.log"; then ok=ok; else ok=fails; fi
	# GCC quotes with ' or, whatever the locale, with UTF-8 quotes
	sed -n "s/.*implicit declaration of function [^A-Za-z0-9_]*\([A-Za-z0-9_]*\).*/\1/p; s/.*error: [^A-Za-z0-9_]*\([A-Za-z0-9_]*\)[^A-Za-z0-9_ ]* undeclared.*/\1/p; s/.*\"\([A-Za-z0-9_]*\)\" \[.*\] undefined!.*/\1/p" \
		"$w/b.log" | sort -u >"$w/errnames"
	# names the forecast concerns: kernel exports (6.1) or names the source writes
	awk '{ print $2; print $3 }' "$w/forecast" | sort -u >"$w/concerned"
	cut -f2 "$K/Module.symvers" | sort -u | comm -12 - "$w/errnames" >"$w/e1"
	comm -12 "$w/concerned" "$w/errnames" | sort -u - "$w/e1" >"$w/relevant"
	agree=yes
	for n in $(cat "$w/relevant"); do
		grep -q "^source-change $n " "$w/forecast" || agree="no ($n not forecast)"
	done
	for n in $(awk '$1 == "rebuild" { print $2 }' "$w/forecast"); do
		grep -qx "$n" "$w/errnames" && agree="no ($n forecast as rebuild)"
	done
	other=$(grep -c 'error:' "$w/b.log")
	printf '| %s | %s | %s / %s / %s | %s | %s | %s | %s | %s |\n' "$pkg" "$kos" \
		"$(grep -c '^rebuild ' "$w/forecast")" "$(grep -c '^source-change ' "$w/forecast")" \
		"$(grep -c '^unknown ' "$w/forecast")" \
		"$(awk '$1 == "source-change" { printf "%s ", $2 }' "$w/forecast")" \
		"$ok" "$(tr '\n' ' ' <"$w/relevant")" "$agree" \
		"$((other - $(wc -l <"$w/relevant")))"
done
