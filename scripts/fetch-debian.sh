#!/bin/sh
# Fetches Debian packages of another suite into a cache folder, the Debian
# way, without touching the machine's apt configuration: a temporary sources
# list naming the mirror the machine already uses, apt-get's own lists and
# cache under the folder, `apt-get download`, then `dpkg -x` (never
# installed).
#
#   fetch-debian.sh [-d DIR] SUITE list REGEX   package names matching REGEX,
#                                               oldest version first
#   fetch-debian.sh [-d DIR] SUITE get PKG...   download and unpack into
#                                               DIR/root; prints DIR/root
#   fetch-debian.sh [-d DIR] SUITE headers PKG  a linux-headers-* package
#                                               with its linux-headers-*-common
#                                               and linux-kbuild-* packages,
#                                               usable as `make -C`; prints
#                                               its folder
#
# DIR defaults to $KSUNSET_CACHE/debian ($KSUNSET_CACHE: /var/cache/ksunset
# when writable, ~/.cache/ksunset otherwise). Lists are refreshed once a day.
# The mirror is the one the machine's apt sources name ($KSUNSET_DEBIAN_MIRROR
# overrides). $KSUNSET_DEBIAN_COMPONENTS names the archive components to
# read, space-separated (default: main; e.g. "main contrib non-free"); lists
# for another set than main are kept apart, under DIR/apt/SUITE+COMPONENTS.
# Exit status: 0 done, 1 no package matched, 2 usage, 77 the archive
# cannot be reached (tests skip on it).
set -eu
prog=fetch-debian.sh
die() { echo "$prog: $*" >&2; exit 2; }

cache=${KSUNSET_CACHE:-}
if [ -z "$cache" ]; then
	if mkdir -p /var/cache/ksunset 2>/dev/null && [ -w /var/cache/ksunset ]; then
		cache=/var/cache/ksunset
	else
		cache=${XDG_CACHE_HOME:-$HOME/.cache}/ksunset
	fi
fi
dir=$cache/debian
if [ "${1:-}" = -d ]; then
	[ $# -ge 2 ] || die "-d needs a folder"
	dir=$2
	shift 2
fi
[ $# -ge 2 ] || die "usage: $prog [-d DIR] SUITE list REGEX | SUITE get PKG..."
suite=$1 verb=$2
shift 2
case $suite in
*[!a-z0-9-]* | '') die "'$suite': not a Debian suite name" ;;
esac
command -v apt-get >/dev/null 2>&1 || die "apt-get not found"

# The Debian mirror the machine uses (deb822 or one-line sources), else
# deb.debian.org; $KSUNSET_DEBIAN_MIRROR overrides.
mirror=${KSUNSET_DEBIAN_MIRROR:-}
[ -n "$mirror" ] || mirror=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
	sed -n 's/^URIs:[[:space:]]*\([^[:space:]]*\/debian\)\/*$/\1/p' | head -1)
[ -n "$mirror" ] || mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
	sed -n 's/^deb[[:space:]]\{1,\}\(\[[^]]*\][[:space:]]\{1,\}\)\{0,1\}\([^[:space:]]*\/debian\)\/*[[:space:]].*/\2/p' | head -1)
[ -n "$mirror" ] || mirror=http://deb.debian.org/debian

components=$(printf '%s\n' "${KSUNSET_DEBIAN_COMPONENTS:-main}" | tr -s ' \t' ' ' | sed 's/^ //; s/ $//')
[ -n "$components" ] || components=main
case $components in
*[!a-z0-9\ -]*) die "'$components': not Debian component names" ;;
esac
apt=$dir/apt/$suite
[ "$components" = main ] || apt=$apt+$(echo "$components" | tr ' ' +)
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$dir/debs" "$dir/root"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite $components" >"$apt/sources.list"
aptget() {
	apt-get -q -o Dir::Etc::sourcelist="$apt/sources.list" -o Dir::Etc::sourceparts=- \
		-o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" \
		-o APT::Sandbox::User=root "$@"
}
aptcache() {
	apt-cache -o Dir::Etc::sourcelist="$apt/sources.list" -o Dir::Etc::sourceparts=- \
		-o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" "$@"
}

# refresh the lists when missing or a day old
if [ -z "$(find "$apt/lists" -maxdepth 1 -name '*_Packages*' -mtime -1 2>/dev/null | head -1)" ]; then
	if ! aptget update >"$apt/update.log" 2>&1 ||
		grep -q '^\(W\|E\): \(Failed to fetch\|Some index files failed\)' "$apt/update.log"; then
		echo "$prog: cannot reach $mirror ($suite): $(grep '^[WE]:' "$apt/update.log" | head -1)" >&2
		exit 77
	fi
fi

case $verb in
list)
	[ $# -eq 1 ] || die "list takes one regular expression"
	names=$(aptcache pkgnames | grep -E "^($1)\$" || true)
	[ -n "$names" ] || { echo "$prog: no package in $suite matches '$1'" >&2; exit 1; }
	# oldest first, by Debian version order
	for n in $names; do
		printf '%s %s\n' "$(aptcache show --no-all-versions "$n" | sed -n 's/^Version: //p' | head -1)" "$n"
	done | sort -t' ' -k1,1V | cut -d' ' -f2
	;;
get)
	[ $# -ge 1 ] || die "get needs package names"
	for p in "$@"; do
		if ! ls "$dir/debs/${p}_"*.deb >/dev/null 2>&1; then
			if ! (cd "$dir/debs" && aptget download "$p") >"$apt/download.log" 2>&1; then
				if grep -q 'Unable to locate\|has no installation candidate' "$apt/download.log"; then
					echo "$prog: no package '$p' in $suite" >&2
					exit 1
				fi
				echo "$prog: cannot download $p from $mirror ($suite): $(grep '^[WE]:' "$apt/download.log" | head -1)" >&2
				exit 77
			fi
		fi
		deb=$(ls "$dir/debs/${p}_"*.deb | tail -1)
		stamp=$dir/root/.unpacked-$(basename "$deb" .deb)
		if [ ! -e "$stamp" ]; then
			dpkg -x "$deb" "$dir/root" || die "cannot unpack $deb"
			: >"$stamp"
		fi
	done
	echo "$dir/root"
	;;
headers)
	[ $# -eq 1 ] || die "headers takes one linux-headers-* package"
	case $1 in linux-headers-*) ;; *) die "'$1': not a linux-headers-* package" ;; esac
	deps=$(aptcache depends "$1" 2>/dev/null |
		sed -n 's/^ *|\{0,1\}Depends: \(linux-\(headers\|kbuild\)-[^ ]*\)$/\1/p')
	root=$("$0" -d "$dir" "$suite" get "$1" $deps) || exit $?
	h=$root/usr/src/$1
	[ -f "$h/Makefile" ] || die "$1: no $h/Makefile after unpacking"
	# The flavour's Makefile includes the common tree by its installed
	# path, and Debian 13's names itself as KBUILD_OUTPUT: point both at
	# the unpacked copy.
	sed -i -e "s|^include /usr/src/|include $root/usr/src/|" \
		-e "s|^KBUILD_OUTPUT=/usr/src/|KBUILD_OUTPUT=$root/usr/src/|" "$h/Makefile"
	echo "$h"
	;;
*) die "'$verb': unknown action (list, get, headers)" ;;
esac
