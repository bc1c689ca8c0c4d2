#!/bin/sh
# Generates the bench's large translation unit: every kernel header of
# bench/tu-headers.txt that compiles with the others, and one call of each
# exported function they declare (zeros for arguments), 25 calls a
# function. Calls that do not compile (a struct passed by value, a macro
# of the same name) are dropped, so the file compiles cleanly with the
# module's own flags.
#   gentu.sh KDIR FLAGS-FILE SYMVERS OUTDIR
# FLAGS-FILE: the compiler and flags of a module's object, as Kbuild ran
# them from KDIR (bench.sh takes them from a .o.cmd file). Writes
# OUTDIR/big.c and OUTDIR/calls.txt (the called exports, one a line).
set -eu
[ $# -eq 4 ] || { echo "usage: gentu.sh KDIR FLAGS-FILE SYMVERS OUTDIR" >&2; exit 2; }
kdir=$1 flags=$(cat "$2") symvers=$3 out=$4
here=$(cd "$(dirname "$0")" && pwd)
# Generated code ignores results and passes null pointers: not worth a warning.
quiet="-Wno-unused-result -Wno-nonnull -Wno-unused-value -Wno-format-extra-args"
mkdir -p "$out"
out=$(cd "$out" && pwd)

# cc SRC [FLAGS...]: compile SRC as Kbuild would; diagnostics to $out/cc.err
cc() {
	src=$1
	shift
	(cd "$kdir" && sh -c "$flags $quiet $* -c -o '$out/tu.o' '$src'") >"$out/cc.err" 2>&1
}

includes() {
	for h in "$@"; do echo "#include <$h>"; done
}

# Keep the headers that compile together: all at once when they do, else
# groups of 16, and a failing group header by header.
pick_headers() {
	all=$(grep -v '^#' "$here/tu-headers.txt")
	# shellcheck disable=SC2086
	includes $all >"$out/hdr.c"
	cc "$out/hdr.c" && return 0
	: >"$out/hdr.c"
	echo "$all" | xargs -n 16 echo >"$out/groups"
	while read -r group; do
		cp "$out/hdr.c" "$out/try.c"
		# shellcheck disable=SC2086
		includes $group >>"$out/try.c"
		if cc "$out/try.c"; then
			cp "$out/try.c" "$out/hdr.c"
			continue
		fi
		for h in $group; do
			cp "$out/hdr.c" "$out/try.c"
			includes "$h" >>"$out/try.c"
			if cc "$out/try.c"; then cp "$out/try.c" "$out/hdr.c"; else echo "gentu: dropped $h" >&2; fi
		done
	done <"$out/groups"
}

# Exported functions that the headers declare, with their argument counts,
# from GCC's -aux-info prototypes: "/* FILE:LINE:NC */ extern T NAME (ARGS);"
candidates() {
	cc "$out/hdr.c" "-aux-info '$out/hdr.aux'"
	awk -F'\t' 'NR == FNR { ex[$2] = 1; next }
	/^\/\* .* \*\/ extern .*\);$/ {
		line = $0
		sub(/^\/\* [^*]* \*\/ extern /, "", line)
		p = index(line, " (")
		if (!p) next
		n = split(substr(line, 1, p - 1), w, /[ *]+/)
		name = w[n]
		args = substr(line, p + 2)
		sub(/\);$/, "", args)
		if (!(name in ex) || (name in seen)) next
		seen[name] = 1
		na = 0
		if (args != "void") {
			na = 1
			for (i = 1; i <= length(args); i++) {
				c = substr(args, i, 1)
				if (c == "(") d++
				else if (c == ")") d--
				else if (c == "," && d == 0) na++
			}
		}
		if (args ~ /\.\.\.$/) na--
		print name, na
	}' "$symvers" "$out/hdr.aux"
}

generate() {
	cat "$out/hdr.c"
	awk '{
		if ((NR - 1) % 25 == 0) {
			if (NR > 1) print "}\n"
			printf "void ks_bench_f%d(void);\nvoid ks_bench_f%d(void)\n{\n", NR, NR
		}
		a = ""
		for (i = 0; i < $2; i++) a = a (i ? ", 0" : "0")
		printf "\t%s(%s);\n", $1, a
	} END { if (NR) print "}" }'
}

pick_headers
candidates | generate >"$out/big.c"
# Drop the calls that fail, a few rounds (an error can hide another).
for _ in 1 2 3 4 5; do
	cc "$out/big.c" && break
	grep -o "^$out/big.c:[0-9]*:[0-9]*: error" "$out/cc.err" | cut -d: -f2 | sort -un |
		sed 's/$/d/' >"$out/drop.sed"
	[ -s "$out/drop.sed" ] || { cat "$out/cc.err" >&2; exit 1; }
	sed -i -f "$out/drop.sed" "$out/big.c"
done
cc "$out/big.c" || { echo "gentu: $out/big.c does not compile:" >&2; tail "$out/cc.err" >&2; exit 1; }
sed -n 's/^\t\([A-Za-z_][A-Za-z0-9_]*\)(.*);$/\1/p' "$out/big.c" >"$out/calls.txt"
rm -f "$out/tu.o" "$out/try.c" "$out/groups" "$out/drop.sed"
echo "gentu: $out/big.c: $(wc -l <"$out/calls.txt") calls of exported functions"
