#!/bin/sh
# Mines how the kernel's own code adapted between two releases, from their
# source trees (Debian's linux-source-X.Y, unpacked: no git needed), and
# writes it as a migrations file (ksunset.migrations(5)) that
# `ksunset check --target` reads to say what to write instead of a line
# that no longer builds.
#
#   migrations.sh [-o FILE] OLD-SRC NEW-SRC
#
# OLD-SRC and NEW-SRC are the tops of the two trees (each with a Makefile
# whose VERSION and PATCHLEVEL name its release). Two kinds of adaptation
# are mined: a header the in-tree code stopped including (nearly every file
# that included it in OLD-SRC no longer does in NEW-SRC), with the header
# those files include instead (at least 3, and two in three, of them: a
# header whose users went different ways has no entry), how many did, and
# one of them at its line in each release; and a call whose function or
# macro takes another number of arguments, with the argument its in-tree
# callers dropped or inserted, a name gone whose callers call another, an
# assignment become an accessor call, a callback stored in a struct's
# member whose definitions changed, with the parameter or return type they
# made const or pointed elsewhere, a member gone whose reads became an
# accessor's calls, and a name or struct whose users added the #include
# of a header that declares it (migrations-calls.py). Only facts are
# written (names, counts, file:line), never the trees' text. Exit status: 0 written, 2 usage or unreadable trees.
set -eu
prog=migrations.sh
die() { echo "$prog: $*" >&2; exit 2; }

out=
if [ "${1:-}" = -o ]; then
	[ $# -ge 2 ] || die "-o needs a file"
	out=$2
	shift 2
fi
[ $# -eq 2 ] || die "usage: $prog [-o FILE] OLD-SRC NEW-SRC"
old=$1 new=$2

# "6.12": the tree's Makefile (VERSION, PATCHLEVEL), else its folder's name
# (linux-source-6.12, unpacked without it)
release() {
	if [ -f "$1/Makefile" ]; then
		sed -n 's/^VERSION = \([0-9]*\)$/\1/p; s/^PATCHLEVEL = \([0-9]*\)$/\1/p' "$1/Makefile" |
			head -2 | paste -sd. -
	else
		basename "$1" | sed -n 's/^linux-source-\([0-9]*\.[0-9]*\)$/\1/p'
	fi
}
for t in "$old" "$new"; do
	[ -d "$t/include/linux" ] || die "$t: not a kernel source tree (no include/linux)"
	case $(release "$t") in
	*.*) ;;
	*) die "$t: no release (neither VERSION and PATCHLEVEL in its Makefile nor linux-source-X.Y as its name)" ;;
	esac
done
rold=$(release "$old") rnew=$(release "$new")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Every #include <...> of the tree's .c and .h files: "FILE LINE HEADER",
# FILE relative to the tree's top.
includes() {
	(cd "$1" && grep -rHnE --include='*.c' --include='*.h' \
		'^[[:space:]]*#[[:space:]]*include[[:space:]]*<[^>]+>' .) |
		sed -E 's|^\./||; s|^([^:]*):([0-9]+):[^<]*<([^>]+)>.*$|\1 \2 \3|' | LC_ALL=C sort -u
}
includes "$old" >"$tmp/old"
includes "$new" >"$tmp/new"
[ -s "$tmp/old" ] && [ -s "$tmp/new" ] || die "no #include found in $old or $new"

{
	echo "# How in-tree code adapted between Linux $rold and $rnew: each header"
	echo "# its files stopped including, and what they include instead; each"
	echo "# call whose arguments changed, and how its in-tree callers changed;"
	echo "# each callback whose prototype changed, and how in-tree ones did;"
	echo "# each assignment in-tree code turned into a call of a setter;"
	echo "# each member gone whose reads in-tree code turned into calls;"
	echo "# each name whose in-tree users added its header's #include."
	echo "# Written by scripts/migrations.sh; read by ksunset check --target."
	echo
	echo "From:    $rold"
	echo "To:      $rnew"
	# Files of both trees: for each header the old one includes and the
	# new one does not, the new one's headers that the old did not include.
	LC_ALL=C awk -v min=3 -v share=0.9 '
		FNR == 1 { part++ }
		part == 1 { o[$1 SUBSEP $3] = $2; ofiles[$1] = 1; oinc[$1] = oinc[$1] " " $3; next }
		part == 2 { n[$1 SUBSEP $3] = $2; nfiles[$1] = 1; ninc[$1] = ninc[$1] " " $3; next }
		function base(p) { sub(/.*\//, "", p); return p }
		# whether file f dropped a header named as h is
		function dropped_base(f, h,    m, i, hs) {
			m = split(oinc[f], hs, " ")
			for (i = 1; i <= m; i++)
				if (!((f SUBSEP hs[i]) in n) && base(hs[i]) == base(h))
					return 1
			return 0
		}
		END {
			for (k in o) {
				split(k, a, SUBSEP); f = a[1]; h = a[2]
				if (!(f in nfiles)) continue
				users[h]++
				if ((f SUBSEP h) in n) continue
				moved[h]++
				m = split(ninc[f], hs, " ")
				# a header of its name that the file now includes
				# is what replaced it; else any the file added
				same = ""
				for (i = 1; i <= m; i++)
					if (!((f SUBSEP hs[i]) in o) && base(hs[i]) == base(h))
						same = hs[i]
				for (i = 1; i <= m; i++) {
					if (((f SUBSEP hs[i]) in o) || (same != "" && hs[i] != same))
						continue
					# nor one that took the place of another header
					# of its name that the file dropped
					if (same == "" && dropped_base(f, hs[i]))
						continue
					pair = h SUBSEP hs[i]
					# the example: the first such file by name
					if (!(pair in cnt) || f < exf[pair]) {
						exf[pair] = f
						ex[pair] = f ":" o[k] " " f ":" n[f SUBSEP hs[i]]
					}
					cnt[pair]++
				}
			}
			for (p in cnt) {
				split(p, a, SUBSEP); h = a[1]
				if (users[h] < min || moved[h] < share * users[h]) continue
				if (cnt[p] > best[h] || (cnt[p] == best[h] && p < bestp[h])) {
					best[h] = cnt[p]; bestp[h] = p
				}
			}
			for (h in best) {
				split(bestp[h], a, SUBSEP)
				# the header at least 3 and two in three of its
				# files took instead: a rename, not a guess
				if (best[h] < min || best[h] * 3 < users[h] * 2) continue
				split(ex[bestp[h]], e, " ")
				printf "%s\t%s\t%d\t%d\t%s\t%s\n", h, a[2], best[h], users[h], e[1], e[2]
			}
		}' "$tmp/old" "$tmp/new" | LC_ALL=C sort |
		while IFS='	' read -r h to count of eold enew; do
			printf '\nHeader:  %s\nInstead: %s\nCount:   %s of %s\nExample: %s -> %s\n' \
				"$h" "$to" "$count" "$of" "$eold" "$enew"
		done
	# the calls whose number of arguments changed; the same file from the
	# same trees on every run (no string hashing of its own each run)
	PYTHONHASHSEED=0 python3 "$(dirname "$0")/migrations-calls.py" "$old" "$new" ||
		die "cannot mine the calls of $old and $new"
} >"$tmp/out"
if [ -n "$out" ]; then
	mv "$tmp/out" "$out"
else
	cat "$tmp/out"
fi
