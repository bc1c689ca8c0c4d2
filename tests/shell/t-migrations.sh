#!/bin/sh
# scripts/migrations.sh: how in-tree code adapted between two source trees
# (two small trees made here: a header renamed and another dropped), and
# the shipped file of Debian's 6.1 and 6.12 in its format. Bad trees are
# refused with exit 2.
. "$(dirname "$0")/lib.sh"
M="$TOP/scripts/migrations.sh"
LC_ALL=C
export LC_ALL

# tree DIR RELEASE: a tree of that release's Makefile
tree() {
	mkdir -p "$1/include/linux" "$1/drivers"
	printf 'VERSION = %s\nPATCHLEVEL = %s\n' "${2%.*}" "${2#*.}" >"$1/Makefile"
}
o=$TMP/old n=$TMP/new
tree "$o" 6.1
tree "$n" 6.12
# five drivers: four move from asm/unaligned.h to linux/unaligned.h, the
# fifth drops it for nothing; every one stops including linux/gone.h, for
# nothing common; linux/kept.h stays everywhere
for i in 1 2 3 4 5; do
	printf '#include <linux/kept.h>\n#include <asm/unaligned.h>\n#include <linux/gone.h>\nint d%s;\n' "$i" \
		>"$o/drivers/d$i.c"
	if [ "$i" -lt 5 ]; then
		printf '#include <linux/kept.h>\n#include <linux/unaligned.h>\n#include <linux/other%s.h>\nint d%s;\n' "$i" "$i"
	else
		printf '#include <linux/kept.h>\nint d%s;\n' "$i"
	fi >"$n/drivers/d$i.c"
done
# three more stop including linux/split.h: two for linux/split_a.h, one
# for linux/split_b.h; no single rewrite
for i in 6 7 8; do
	printf '#include <linux/split.h>\nint d%s;\n' "$i" >"$o/drivers/d$i.c"
	printf '#include <linux/split_%s.h>\nint d%s;\n' "$([ "$i" -lt 8 ] && echo a || echo b)" "$i" \
		>"$n/drivers/d$i.c"
done
sh "$M" -o "$TMP/m" "$o" "$n" 2>"$TMP/err"
expect_eq "two trees: exit 0" "$?" 0
expect_eq "two trees: the releases" "$(grep -E '^(From|To):' "$TMP/m" | tr -s ' ' | paste -sd' ' -)" "From: 6.1 To: 6.12"
expect_eq "two trees: the renamed header, what replaced it, how many, where" \
	"$(grep -A3 '^Header:' "$TMP/m" | tr -s ' ' | paste -sd'|' -)" \
	"Header: asm/unaligned.h|Instead: linux/unaligned.h|Count: 4 of 5|Example: drivers/d1.c:2 -> drivers/d1.c:2"
expect_no_grep "two trees: a header no file replaced the same way is no rename" "$TMP/m" "linux/gone.h"
expect_no_grep "two trees: a header still included is no rename" "$TMP/m" "linux/kept.h"
expect_no_grep "two trees: a header whose users went two ways has no entry" "$TMP/m" "linux/split"

# the same trees named as unpacked from Debian's linux-source-X.Y, without
# their Makefiles
mv "$o" "$TMP/linux-source-6.1" && mv "$n" "$TMP/linux-source-6.12"
rm "$TMP/linux-source-6.1/Makefile" "$TMP/linux-source-6.12/Makefile"
sh "$M" "$TMP/linux-source-6.1" "$TMP/linux-source-6.12" >"$TMP/m2" 2>"$TMP/err"
expect_eq "linux-source-X.Y trees: exit 0, the release from the name" "$?:$(grep '^To:' "$TMP/m2" | tr -s ' ')" "0:To: 6.12"

# bad input
sh "$M" "$TMP/nothing" "$TMP/linux-source-6.12" >"$TMP/out" 2>"$TMP/err"
expect_eq "not a tree: exit 2" "$?" 2
expect_grep "not a tree: says which" "$TMP/err" "$TMP/nothing: not a kernel source tree"
mkdir -p "$TMP/noname/include/linux"
sh "$M" "$TMP/noname" "$TMP/linux-source-6.12" >"$TMP/out" 2>"$TMP/err"
expect_eq "no release: exit 2" "$?" 2
expect_grep "no release: says so" "$TMP/err" "$TMP/noname: no release"
sh "$M" "$TMP/linux-source-6.1" >"$TMP/out" 2>"$TMP/err"
expect_eq "one tree: exit 2, usage" "$?:$(cat "$TMP/err")" "2:migrations.sh: usage: migrations.sh [-o FILE] OLD-SRC NEW-SRC"

# the shipped file: Debian's 6.1 and 6.12, in the format of
# ksunset.migrations(5)
S="$TOP/share/migrations/6.1-6.12.migrations"
expect_eq "shipped: its releases" "$(grep -E '^(From|To):' "$S" | tr -s ' ' | paste -sd' ' -)" "From: 6.1 To: 6.12"
expect_grep "shipped: <asm/unaligned.h> became <linux/unaligned.h> in-tree" "$S" "Header:  asm/unaligned.h
Instead: linux/unaligned.h"
expect_eq "shipped: every entry has its four fields, each well formed" "$(awk '
	/^Header:  [^ ]+$/ { h++; next } /^Instead: [^ ]+$/ { i++; next }
	/^Count:   [0-9]+ of [0-9]+$/ { c++; next } /^Example: [^ :]+:[0-9]+ -> [^ :]+:[0-9]+$/ { e++; next }
	/^(#|From:|To:|$)/ { next } { bad++ }
	END { print (h == i && i == c && c == e && h > 0 && !bad) ? "ok" : "bad " h " " i " " c " " e " " bad }' "$S")" ok
