#!/bin/sh
# Regenerates share/history.schedule: the export changes between Debian's
# kernels, as schedule entries keyed by the release that made them, so that
# `ksunset check --history` forecasts without downloading anything. The
# headers packages (only their Module.symvers is read) are fetched by
# scripts/fetch-debian.sh into its cache, never installed.
#
#   history.sh [-o FILE] [KSUNSET]
#
# The kernels, oldest first: the newest of Debian 12's 6.1 series, of
# Debian 13's 6.12 series, and of trixie-backports' 7.x. A symbol keeps
# the entry of its first change (removed in 6.12 stays removed in 7.x).
# Exit status: 0 written, 1 failed, 77 the archive cannot be reached.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/share/history.schedule
if [ "${1:-}" = -o ]; then
	out=$2
	shift 2
fi
ks=${1:-$top/build/ksunset}
fetch=$top/scripts/fetch-debian.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# symvers SUITE REGEX: the folder of the newest matching headers package
# (its -ARCH part: the release and the Module.symvers are there)
symvers() {
	pkg=$("$fetch" "$1" list "$2" | tail -n 1) || exit $?
	# installed already (linux-headers-amd64 of the machine): no download
	if [ -f "/usr/src/$pkg/Module.symvers" ]; then echo "/usr/src/$pkg"; return 0; fi
	root=$("$fetch" "$1" get "$pkg") || exit $?
	echo "$root/usr/src/$pkg"
}
k1=$(symvers bookworm 'linux-headers-6\.1\.0-[0-9]+-amd64')
k2=$(symvers trixie 'linux-headers-6\.12\.[0-9]+\+deb13-amd64')
k3=$(symvers trixie-backports 'linux-headers-7\.[0-9.]+\+deb13-amd64')

"$ks" diff "$k1" "$k2" --schedule-out "$tmp/1" >/dev/null
"$ks" diff "$k2" "$k3" --schedule-out "$tmp/2" >/dev/null

# One entry per symbol: paragraphs of the later file lose the symbols an
# earlier one has (What: is a comma-separated list, continued on indented
# lines).
{
	printf '# Export changes between Debian kernels: %s, %s, %s.\n' \
		"$(basename "$k1" | sed 's/linux-headers-//')" "$(basename "$k2" | sed 's/linux-headers-//')" \
		"$(basename "$k3" | sed 's/linux-headers-//')"
	echo "# Written by scripts/history.sh (ksunset diff); read by ksunset check --history."
	awk 'BEGIN { RS = ""; FS = "\n" }
	/^#/ { next }
	{
		what = ""; rest = ""; inwhat = 0
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^What:/) { inwhat = 1; what = substr($i, 6); continue }
			if (inwhat && $i ~ /^[ \t]/) { what = what " " $i; continue }
			inwhat = 0; rest = rest $i "\n"
		}
		gsub(/[ \t,]+/, " ", what)
		n = split(what, s, " "); keep = ""; k = 0; col = 0
		for (i = 1; i <= n; i++) {
			if (s[i] == "" || (s[i] in seen)) continue
			seen[s[i]] = 1
			sep = k ? (col + length(s[i]) > 60 ? ",\n         " : ", ") : ""
			if (sep ~ /\n/) col = 0
			keep = keep sep s[i]; col += length(s[i]) + 2; k++
		}
		if (k) printf "\nWhat:    %s\n%s", keep, rest
	}' "$tmp/1" "$tmp/2"
} >"$tmp/history"
"$ks" lint -s "$tmp/history" >/dev/null
mkdir -p "$(dirname "$out")"
mv "$tmp/history" "$out"
echo "$out: $(grep -c '^What:' "$out") entries"
