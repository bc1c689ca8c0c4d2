# Helpers for the shell tests: pass/fail reporting and output comparison.
# shellcheck shell=sh
T_NAME=$(basename "$0" .sh)
TMP=$(mktemp -d)
# A script that reported a FAIL exits 1 even where it ends with "exit 0",
# so run.sh sees the failure in the status too.
t_exit() {
	t_rc=$1
	rm -rf "$TMP"
	[ "$t_rc" -eq 0 ] && [ -n "${T_FAILED:-}" ] && t_rc=1
	exit "$t_rc"
}
trap 't_exit $?' EXIT

pass() { echo "PASS $T_NAME: $1"; }
fail() { echo "FAIL $T_NAME: $1"; T_FAILED=1; }
skip() { echo "SKIP $T_NAME: $1"; }

# expect_eq WHAT GOT WANT
expect_eq() {
	if [ "$2" = "$3" ]; then pass "$1"; else
		fail "$1"
		printf '  got:  %s\n  want: %s\n' "$2" "$3"
	fi
}

# expect_file_eq WHAT GOT-FILE WANT-FILE: shows a diff when they differ
expect_file_eq() {
	if diff -u "$3" "$2" >"$TMP/diff"; then pass "$1"; else
		fail "$1"
		sed 's/^/  /' "$TMP/diff"
	fi
}

# has FILE TEXT: whether FILE holds TEXT, of several lines as consecutive
# lines (grep -F would take each line for a pattern of its own, any one
# enough)
has() {
	case $2 in
	*"
"*) PAT=$2 awk 'BEGIN { RS = "\001" } { if (index($0, ENVIRON["PAT"])) found = 1 }
		END { exit !found }' "$1" ;;
	*) grep -qF -- "$2" "$1" ;;
	esac
}

# expect_grep WHAT FILE PATTERN (fixed string; several lines: a block)
expect_grep() {
	if has "$2" "$3"; then pass "$1"; else
		fail "$1: '$3' not in output"
		sed 's/^/  | /' "$2" | head -40
	fi
}

# expect_no_grep WHAT FILE PATTERN (fixed string; several lines: a block)
expect_no_grep() {
	if ! has "$2" "$3"; then pass "$1"; else
		fail "$1: '$3' in output"
		grep -F -- "$3" "$2" | sed 's/^/  | /' | head -10
	fi
}

# The newest Debian kernel headers (linux-headers-amd64): the tests' kernel.
kdir() {
	ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V | tail -n 1
}

# kbuild SRC DEST [MAKE-ARGS...]: copy a module's sources to DEST and build
# them through the kernel's Kbuild (KB_KDIR's, else kdir's); the build log
# goes to DEST.log.
kbuild() {
	src=$1 dest=$2
	shift 2
	rm -rf "$dest" && mkdir -p "$dest" && cp -r "$src"/. "$dest"/ || return 1
	make -C "${KB_KDIR:-$(kdir)}" M="$dest" "$@" modules >"$dest.log" 2>&1
}

# nm_counts KO-LIST SYMVERS...: the reference for `ksunset unused --counts`,
# computed with nm -u alone: every export (the first of a symbol wins) with
# the number of modules in KO-LIST (a file, one path a line) importing it,
# as "COUNT<TAB>SYMBOL<TAB>TYPE<TAB>NAMESPACE-or--<TAB>OWNER", sorted by symbol.
nm_counts() {
	list=$1
	shift
	xargs nm -u <"$list" | awk '
		/:$/ { mod = $1; next }
		NF >= 2 && !seen[mod, $2]++ { n[$2]++ }
		END { for (s in n) print s "\t" n[s] }' >"$TMP/.nmcounts"
	awk -F'\t' 'FNR == NR { n[$1] = $2; next }
		!($2 in done) { done[$2]; ns = $5 == "" ? "-" : $5
			printf "%d\t%s\t%s\t%s\t%s\n", n[$2], $2, $4, ns, $3 }' \
		"$TMP/.nmcounts" "$@" | LC_ALL=C sort -t "$(printf '\t')" -k2,2
}

# fetch_headers SUITE REGEX: the newest linux-headers-* package of Debian's
# SUITE whose name matches REGEX, fetched into the cache and unpacked by
# scripts/fetch-debian.sh (never installed); prints its folder. Fails with
# the script's status (77: the archive cannot be reached) and its message
# in $TMP/fetch.log.
fetch_headers() {
	fh_pkg=$("$TOP/scripts/fetch-debian.sh" "$1" list "$2" 2>"$TMP/fetch.log" | tail -n 1) &&
		[ -n "$fh_pkg" ] &&
		"$TOP/scripts/fetch-debian.sh" "$1" headers "$fh_pkg" 2>"$TMP/fetch.log"
}

# schedule_every LIST OUT: a schedule whose one entry names every symbol of
# LIST (a file, one a line), due 2030-01-01, so every use of them is warned.
schedule_every() {
	{
		echo "What: $(head -n 1 "$1")"
		tail -n +2 "$1" | sed 's/^/ /'
		echo "When: 2030-01-01"
	} >"$2"
}

# dkms_build PKG PREFIX CMD KDIR: Debian's DKMS package PKG (its sources
# in usr/src/PREFIX*), fetched once with apt-get download into the cache
# that scripts/fetch-debian.sh uses and unpacked with dpkg -x, copied to
# $TMP and built without the plugin by CMD (a build command of
# ../shared/corpus/dkms-packages.tsv) against the headers KDIR. Prints
# the build folder; on failure, why, and fails.
dkms_build() {
	db_cache=${KSUNSET_CACHE:-}
	if [ -z "$db_cache" ]; then
		if mkdir -p /var/cache/ksunset 2>/dev/null && [ -w /var/cache/ksunset ]; then
			db_cache=/var/cache/ksunset
		else
			db_cache=${XDG_CACHE_HOME:-$HOME/.cache}/ksunset
		fi
	fi
	db_cache=$db_cache/dkms/$1
	if ! ls -d "$db_cache/usr/src/$2"* >/dev/null 2>&1; then
		rm -rf "$db_cache" && mkdir -p "$db_cache/deb" || { echo "cannot make $db_cache"; return 1; }
		if ! (cd "$db_cache/deb" && apt-get download "$1") >"$TMP/dl.log" 2>&1; then
			echo "apt-get download failed: $(tail -n 1 "$TMP/dl.log")"
			return 1
		fi
		dpkg -x "$db_cache"/deb/*.deb "$db_cache" || { echo "dpkg -x failed"; return 1; }
	fi
	db_dir=$TMP/build-$1
	rm -rf "$db_dir" && cp -r "$(ls -d "$db_cache/usr/src/$2"* | head -n 1)" "$db_dir" ||
		{ echo "cannot copy its sources"; return 1; }
	db_cmd=$(echo "$3" | sed "s/<release>/${4#/usr/src/linux-headers-}/g; s/ *(.*)\$//")
	# shellcheck disable=SC2034 # S and K are for the eval'd command
	if ! (cd "$db_dir" && S=$db_dir K=$4 && eval "$db_cmd") >"$db_dir.log" 2>&1; then
		echo "does not build: $(tail -n 1 "$db_dir.log")"
		return 1
	fi
	echo "$db_dir"
}
