#!/bin/sh
# check --target's forecast against real builds (issue 25, item 6): each
# DKMS package of the TSV files built against Debian 12's 6.1 with the
# plugin and its api argument, forecast on bookworm-backports' 6.12
# headers, and really built against them with make -k; the error lines in
# the package's own sources against the forecast's locations, the
# outlooks, and the cost of the forecast against one real build
# (bench/validate_target.py says how each is counted). Prints Markdown;
# progress (package, step, elapsed) goes to stderr.
#
#   bench/validate-target.sh TSV... [-- KSUNSET]
# TSV: bench/dkms-bookworm.tsv's format (5th column of extra packages
# optional) or the old 4-column one. Packages of contrib and non-free are
# fetched too (KSUNSET_DEBIAN_COMPONENTS, "main contrib non-free" unless
# set). KSUNSET_VALIDATE_ONLY=pkg,pkg, KSUNSET_VALIDATE_KEEP=DIR,
# KSUNSET_VALIDATE_TIMEOUT=seconds per step (1800).
# Exit status: 0, 77 when the Debian archive cannot be reached.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
ks=$top/build/ksunset
tsvs=""
while [ $# -gt 0 ]; do
	case $1 in
	--) [ $# -ge 2 ] || { echo "validate-target.sh: -- needs the ksunset binary" >&2; exit 2; }
		ks=$2; shift 2 ;;
	*) tsvs="$tsvs $1"; shift ;;
	esac
done
case $ks in /*) ;; *) ks=$(pwd)/$ks ;; esac
[ -x "$ks" ] || { echo "validate-target.sh: $ks: not an executable" >&2; exit 2; }
KSUNSET_DEBIAN_COMPONENTS=${KSUNSET_DEBIAN_COMPONENTS:-main contrib non-free}
export KSUNSET_DEBIAN_COMPONENTS
fetch=$top/scripts/fetch-debian.sh
K=$(ls -d /usr/src/linux-headers-*-amd64 | sort -V | tail -1)
H=$("$fetch" bookworm-backports headers \
	"$("$fetch" bookworm-backports list 'linux-headers-6\.12\.[0-9]+\+deb12-amd64' | tail -1)") || exit 77
# shellcheck disable=SC2086
exec python3 "$top/bench/validate_target.py" "$ks" "$K" "$H" $tsvs
