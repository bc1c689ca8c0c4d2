#!/bin/sh
# make bench: ksunset against what people would use instead, on a whole
# distribution kernel, and the plugin's cost at compile time. Prints a
# table and writes it, with the machine's description, to bench/results.md
# (the part from "## Notes" on is kept: findings written by hand).
#
# Environment: KSUNSET, PLUGIN (set by make), KDIR (default: the newest
# /usr/src/linux-headers-*-amd64), KSUNSET_BENCH_CACHE (where the kernel
# package is unpacked, default /var/cache/ksunset-bench), RUNS (check runs,
# default 7), LOOP_RUNS (nm-per-file runs, default 1), CC_RUNS (paired
# compile runs, default 7), DKMS_RUNS (paired Kbuild builds of each DKMS
# package, default 5), DKMS (the packages, default: all three below),
# XZ_RUNS (runs of the .ko.xz part, default 5), PARTS (what to run, default
# all: "check kbuild instr tu xz"; "plugin" stands for "kbuild instr tu",
# the plugin's Kbuild times, cc1 instruction counts with and without its
# api argument, and the large TU; "dwarf", "target" and "fix" are
# bench/dwarf.sh's, bench/target.sh's and bench/fix.sh's, and ignored
# here). Tables (1)-(3) of bench/results.md are written only when check,
# kbuild, instr and tu all run; another set prints its tables and leaves
# them alone. xz writes its own section, between the "xz-check" markers of
# bench/results.md, so that PARTS=xz can run it alone.
set -eu
unset MAKEFLAGS MFLAGS MAKELEVEL || true
top=$(cd "$(dirname "$0")/.." && pwd)
: "${KSUNSET:=$top/build/ksunset}" "${PLUGIN:=$top/build/ksunset.so}"
: "${RUNS:=7}" "${LOOP_RUNS:=1}" "${CC_RUNS:=7}" "${DKMS_RUNS:=5}" "${XZ_RUNS:=5}"
: "${PARTS:=check kbuild instr tu xz}"
PARTS=$(echo " $PARTS " | sed 's/ plugin / kbuild instr tu /')
: "${DKMS:=v4l2loopback-dkms gost-crypto-dkms xtables-addons-dkms}"
CACHE=${KSUNSET_BENCH_CACHE:-/var/cache/ksunset-bench}
KDIR=${KDIR:-$(printf '%s\n' /usr/src/linux-headers-*-amd64 | sort -V | tail -n 1)}
W=$top/build/bench
DATA=$W/times
export LC_ALL=C
. "$top/bench/section.sh"

# part NAME: whether PARTS asks for it
part() {
	case " $PARTS " in *" $1 "*) return 0 ;; esac
	return 1
}

die() {
	echo "bench: $*" >&2
	exit 1
}

say() {
	echo "bench: $*" >&2
}

# agree WHAT A B: nothing if files A and B are the same; else their first
# differences, and the run fails
agree() {
	cmp -s "$2" "$3" && return 0
	diff "$2" "$3" | head -20 >&2
	die "$1 differ ($2, $3): FAILED"
}

# --- setup -------------------------------------------------------------

setup() {
	for p in $PARTS; do
		case $p in
		check | kbuild | instr | tu | xz | dwarf | target | fix) ;;
		*) die "PARTS: unknown part '$p' (check, plugin or kbuild instr tu, xz, dwarf, target, fix)" ;;
		esac
	done
	sh "$top/scripts/install-deps.sh" bench || say "instruction counts need valgrind"
	if [ ! -x "$KSUNSET" ] || [ ! -f "$PLUGIN" ]; then
		die "build ksunset and the plugin first (make)"
	fi
	mkdir -p "$W"
	: >"$DATA"
	: >"$W/instr"
	for p in floor runstat; do
		cc -std=c11 -O2 -Wall -Wextra -Werror -Wmissing-prototypes -Wformat=2 \
			-o "$W/$p" "$top/bench/$p.c" -lelf -llzma
	done
	part check || part kbuild || part instr || part tu || return 0
	[ -f "$KDIR/Module.symvers" ] || die "no kernel headers with a Module.symvers (KDIR=$KDIR)"
	VER=${KDIR##*/linux-headers-}
	IMG=$CACHE/img/lib/modules/$VER
	SYMVERS=$KDIR/Module.symvers
	NEXP=$(wc -l <"$SYMVERS")
	make_schedule
	part check || return 0
	fetch_kernel
	NMOD=$(find "$IMG" -name '*.ko' | wc -l)
	make_module_lists
}

# Debian's package of the same kernel as KDIR, unpacked once into CACHE.
fetch_kernel() {
	[ -n "$(find "$IMG" -name '*.ko' -print -quit 2>/dev/null)" ] && return 0
	pkg=linux-image-$VER
	say "fetching $pkg into $CACHE"
	mkdir -p "$CACHE"
	(cd "$CACHE" && { apt-get download "$pkg" 2>/dev/null ||
		{ apt-get update -qq && apt-get download "$pkg"; }; }) || die "cannot download $pkg"
	rm -rf "$CACHE/img"
	dpkg -x "$(printf '%s\n' "$CACHE/${pkg}"_*.deb | sort -V | tail -n 1)" "$CACHE/img"
	[ -n "$(find "$IMG" -name '*.ko' -print -quit)" ] || die "no modules in $pkg"
}

# entries < NAMES: one schedule entry per symbol, due far ahead (warnings)
entries() {
	awk '{ printf "What: %s\nWhen: 2099-01-01\nWhy: bench\nWho: bench\n\n", $1 }'
}

# schedule_of SYMVERS DIR: DIR/exports, every export of SYMVERS but the
# example schedule's (the plugin runs are given both); DIR/syms, 1,000 of
# them, every Nth by name; DIR/bench.schedule, an entry for each.
schedule_of() {
	ex=$(sed -n 's/^What: *//p' "$top/examples/schedules/ksunset.schedule" | tr -s ', ' '\n')
	cut -f2 "$1" | sort -u | grep -vxF "$ex" >"$2/exports"
	awk -v n="$(wc -l <"$2/exports")" 'BEGIN { s = int(n / 1000) } NR % s == 0 && c < 1000 { print; c++ }' \
		"$2/exports" >"$2/syms"
	entries <"$2/syms" >"$2/bench.schedule"
}

# The 1,000-export schedule, and the plugin's flags for it: KCF, and
# KCF_API with the api argument.
make_schedule() {
	schedule_of "$SYMVERS" "$W"
	KCF=$("$KSUNSET" --cflags -s "$W/bench.schedule" -s "$top/examples/schedules/ksunset.schedule")
	KCF_API="$KCF -fplugin-arg-ksunset-api"
}

# A 1/4 subset of the modules that keeps the largest one, and the
# modules eight times over.
make_module_lists() {
	# the subset keeps the largest module: memory is to be bounded by the
	# largest module, so the question is whether the rest adds to it
	mkdir -p "$W/quarter"
	big=$(cd "$IMG" && ls -S $(cat modules.order) | head -n 1)
	awk -v d="$IMG" -v big="$big" 'NR % 4 == 1 || $0 == big { print d "/" $0 }' \
		"$IMG/modules.order" >"$W/quarter/modules.order"
	NQUARTER=$(wc -l <"$W/quarter/modules.order")
	# the same modules eight times over: what grows with the count alone
	mkdir -p "$W/x8"
	for k in 1 2 3 4 5 6 7 8; do sed "s|^|$IMG/|" "$IMG/modules.order"; done >"$W/x8/modules.order"
	BIG=$IMG/$big
	mkdir -p "$W/none"
}

# --- measuring ---------------------------------------------------------

# measure LABEL RUN CMD: run CMD (sh -c) under bench/runstat, record
# "LABEL RUN WALL CPU RSS-KIB"; CPU is user+sys of CMD and its children,
# RSS the peak of the largest process.
measure() {
	if ! "$W/runstat" "$W/time.out" sh -c "$3" >/dev/null 2>"$W/err.out"; then
		tail "$W/err.out" >&2
		die "$1 failed: $3"
	fi
	printf '%s %s %s\n' "$1" "$2" "$(cat "$W/time.out")" >>"$DATA"
}

# median LABEL FIELD (3 wall, 4 cpu, 5 rss)
median() {
	awk -v l="$1" -v f="$2" '$1 == l { print $f }' "$DATA" | sort -g |
		awk '{ v[NR] = $1 } END { if (!NR) print "nan"; else print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}

# paired LABEL-A LABEL-B FIELD: median over runs of A/B
paired() {
	awk -v a="$1" -v b="$2" -v f="$3" '$1 == a { x[$2] = $f } $1 == b { y[$2] = $f }
		END { for (r in x) if (r in y && y[r] > 0) print x[r] / y[r] }' "$DATA" | sort -g |
		awk '{ v[NR] = $1 } END { if (!NR) print "nan"; else print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}

# pairrange LABEL-A LABEL-B FIELD head|tail: the smallest or largest
# per-run A/B, as a signed percentage
pairrange() {
	awk -v a="$1" -v b="$2" -v f="$3" '$1 == a { x[$2] = $f } $1 == b { y[$2] = $f }
		END { for (r in x) if (r in y && y[r] > 0) printf "%+.1f%%\n", (x[r] / y[r] - 1) * 100 }' "$DATA" |
		sort -g | "$4" -n 1
}

calc() {
	awk "BEGIN { print $* }"
}

# --- (1) check at distro scale -----------------------------------------

# $W/match.awk: of the "MODULE[:] [TYPE] SYMBOL" lines of nm -A or
# floor -p, the scheduled, as "MODULE SYMBOL"
match_awk() {
	cat >"$W/match.awk" <<'EOF'
# "MODULE[:] [TYPE] SYMBOL" lines of nm -A or floor -p: keep the scheduled
NR == FNR { s[$1] = 1; next }
$NF in s { m = $1; sub(/:$/, "", m); print m, $NF }
EOF
}

check_cmds() {
	MATCH="awk -f '$W/match.awk' '$W/syms' -"
	match_awk
	CK="'$KSUNSET' check -s '$W/bench.schedule' -i '$SYMVERS'" Q=">/dev/null 2>&1"
	C_CHECK="$CK '$IMG' >'$W/check.out' 2>&1"
	C_UNUSED="'$KSUNSET' unused -i '$SYMVERS' --counts '$IMG' >'$W/unused.out'"
	C_XARGS="find '$IMG' -name '*.ko' -print0 | xargs -0 nm -u -A | $MATCH >'$W/xargs.out'"
	C_LOOP="find '$IMG' -name '*.ko' | while read -r f; do nm -u -A \"\$f\"; done | $MATCH >'$W/loop.out'"
	C_FLOOR="'$W/floor' '$IMG'"
	C_ORDER="$CK '$IMG/modules.order' $Q"
	C_QUARTER="$CK '$W/quarter/modules.order' $Q"
	C_X8="$CK '$W/x8/modules.order' $Q"
	C_ORDER_J1="$CK -j 1 '$IMG/modules.order' $Q"
	C_X8_J1="$CK -j 1 '$W/x8/modules.order' $Q"
	C_BIG="$CK '$BIG' $Q"
	C_NONE="$CK --allow-empty '$W/none' $Q"
}

bench_check() {
	check_cmds
	say "check: $NMOD modules, $RUNS runs (and $LOOP_RUNS of nm per file)"
	measure warmup 0 "$C_FLOOR; $C_XARGS"
	for r in $(seq "$RUNS"); do
		measure check "$r" "$C_CHECK"
		measure unused "$r" "$C_UNUSED"
		measure xargs "$r" "$C_XARGS"
		measure floor "$r" "$C_FLOOR"
		measure order "$r" "$C_ORDER"
		measure quarter "$r" "$C_QUARTER"
		measure x8 "$r" "$C_X8"
		measure order-j1 "$r" "$C_ORDER_J1"
		measure x8-j1 "$r" "$C_X8_J1"
		measure big "$r" "$C_BIG"
		measure none "$r" "$C_NONE"
	done
	for r in $(seq "$LOOP_RUNS"); do
		measure loop "$r" "$C_LOOP"
	done
	cross_check
}

# Module/symbol pairs must agree: nm's (xargs and loop), the floor's and
# ksunset check's; and ksunset unused's import counts with nm's.
cross_check() {
	sort -u "$W/xargs.out" >"$W/pairs.nm"
	loop=""
	[ "$LOOP_RUNS" -gt 0 ] && loop=loop && sort -u "$W/loop.out" >"$W/pairs.loop"
	"$W/floor" -p "$IMG" | eval "$MATCH" | sort -u >"$W/pairs.floor"
	sed -n 's/^[A-Z]*: ksunset: "\([^"]*\)" \[\(.*\)\] .*/\2 \1/p' "$W/check.out" | sort -u >"$W/pairs.ksunset"
	find "$IMG" -name '*.ko' -print0 | xargs -0 nm -u -A |
		awk 'NR == FNR { ex[$2] = 1; next } ($NF in ex) && !seen[$1, $NF]++ { n[$NF]++ }
			END { for (s in n) print s, n[s] }' FS='\t' "$SYMVERS" FS=' ' - | sort >"$W/counts.nm"
	awk -F'\t' '$1 > 0 { print $2, $1 }' "$W/unused.out" | sort >"$W/counts.ksunset"
	NPAIRS=$(wc -l <"$W/pairs.nm")
	[ "$NPAIRS" -gt 0 ] || die "cross-check: nm found no scheduled imports"
	for f in $loop floor ksunset; do
		agree "cross-check: module/symbol pairs of nm and $f" "$W/pairs.nm" "$W/pairs.$f"
	done
	agree "cross-check: import counts of nm and ksunset unused" "$W/counts.nm" "$W/counts.ksunset"
	say "cross-check: $NPAIRS module/symbol pairs agree (nm, nm per file, floor, ksunset check); unused counts agree"
}

# --- (2) plugin overhead, (3) schedule lookup --------------------------

# Real out-of-tree module packages of Debian 12 and how they are built
# (in a copy S of the source folder, against K): one large file, a few
# modules, and two dozen modules.
dkms_recipe() {
	case $1 in
	v4l2loopback-dkms) echo 'v4l2loopback- make -C $S KERNEL_DIR=$K all' ;;
	gost-crypto-dkms) echo 'gost-crypto- make -C $K M=$S DKMS_BUILD=1' ;;
	xtables-addons-dkms) echo 'xtables-addons- make -C $K M=$S/extensions XA_ABSTOPSRCDIR=$S XA_TOPSRCDIR=$S modules' ;;
	*) die "no build recipe for $1" ;;
	esac
}

# dkms_fetch PKG: the package's source folder, unpacked once into CACHE.
dkms_fetch() {
	prefix=$(dkms_recipe "$1" | cut -d' ' -f1)
	dir=$CACHE/dkms/$1
	src=$(ls -d "$dir"/x/usr/src/"$prefix"* 2>/dev/null | head -n 1)
	if [ -z "$src" ]; then
		say "fetching $1 into $dir"
		rm -rf "$dir" && mkdir -p "$dir"
		(cd "$dir" && { apt-get download "$1" >/dev/null 2>&1 ||
			{ apt-get update -qq && apt-get download "$1" >/dev/null; }; }) ||
			die "cannot download $1"
		dpkg -x "$dir"/*.deb "$dir/x" || die "cannot unpack $1"
		src=$(ls -d "$dir"/x/usr/src/"$prefix"* 2>/dev/null | head -n 1)
	fi
	[ -n "$src" ] || die "no usr/src/$prefix* in $1"
	echo "$src"
}

# kbuild LABEL RUN SRC DIR CMD [KCFLAGS]: a build of a fresh copy of SRC
# in DIR with CMD ($S the copy, $K the kernel headers)
kbuild() {
	rm -rf "$4" && mkdir -p "${4%/*}" && cp -r "$3" "$4"
	measure "$1" "$2" "cd '$4' && S='$4' K='$KDIR' && KCFLAGS='${6:-}' && export KCFLAGS && $5"
	plugged=$(find "$4" -name '.*.o.cmd' -exec grep -l -e '-fplugin=' {} + | head -n 1)
	if [ -n "${6:-}" ] && [ -z "$plugged" ]; then die "$1: the plugin was not loaded"; fi
	if [ -z "${6:-}" ] && [ -n "$plugged" ]; then die "$1: the plugin was loaded"; fi
	[ -n "$(find "$4" -name '*.ko' -print -quit)" ] || die "$1: no module built"
}

# kbuild_pairs NAME RUNS SRC CMD: RUNS pairs, alternating which goes first
kbuild_pairs() {
	d=$W/kbuild/$1
	kbuild "warm-$1" 0 "$3" "$d" "$4" "$KCF"
	kbuild "warm-$1" 0 "$3" "$d" "$4"
	for r in $(seq "$2"); do
		if [ $((r % 2)) -eq 1 ]; then
			kbuild "kb-$1" "$r" "$3" "$d" "$4"
			kbuild "kb-$1-plugin" "$r" "$3" "$d" "$4" "$KCF"
		else
			kbuild "kb-$1-plugin" "$r" "$3" "$d" "$4" "$KCF"
			kbuild "kb-$1" "$r" "$3" "$d" "$4"
		fi
	done
}

bench_kbuild() {
	# legacy: the flags of the large TU and an instruction count
	say "plugin: Kbuild builds of tests/modules/legacy, $CC_RUNS pairs"
	kbuild_pairs legacy "$CC_RUNS" "$top/tests/modules/legacy" 'make -s -C $K M=$S'
	for pkg in $DKMS; do
		src=$(dkms_fetch "$pkg")
		say "plugin: Kbuild builds of $pkg, $DKMS_RUNS pairs"
		kbuild_pairs "$pkg" "$DKMS_RUNS" "$src" "$(dkms_recipe "$pkg" | cut -d' ' -f2-)"
	done
}

# cmdline CMD-FILE: the command Kbuild recorded in a .cmd file
cmdline() {
	sed -n 's/^cmd_[^ ]* := *//p; s/^savedcmd_[^ ]* := *//p' "$1"
}

# cmdflags CMD-FILE: the compiler and flags Kbuild used for an object,
# without the plugin, the dependency file and the input and output.
cmdflags() {
	cmdline "$1" |
		sed -e 's/ *;.*//' -e 's/ -Wp,-MMD,[^ ]*//' -e 's/ -fplugin[^ ]*//g' -e 's/ -c -o .*//'
}

# compiled_source CMD-FILE: the C file a Kbuild .cmd file compiles, if any
compiled_source() {
	cmdline "$1" | sed 's/ *;.*//' |
		grep -e ' -c -o ' | awk '$NF ~ /\.c$/ { print $NF }'
}

# cc1_instr OUT FLAGS SRC: instructions cc1 executes compiling SRC
# (callgrind: the same count every run, unlike times)
cc1_instr() {
	(cd "$KDIR" && sh -c "valgrind --tool=callgrind --trace-children=yes \
--trace-children-skip='*/as' --callgrind-out-file=/dev/null $2 -c -o '$1' '$3'" 2>&1) |
		sed -n 's/.*Collected : //p' | sort -n | tail -n 1
}

# add X Y: the exact sum of two counts (print would round them)
add() {
	awk -v x="$1" -v y="$2" 'BEGIN { printf "%.0f\n", x + y }'
}

# instr_pkg LABEL DIR: the instructions of every compilation of DIR's
# last Kbuild build (its .cmd files), without the plugin, with it, and
# with its api argument; appends "LABEL FILES SUM", "LABEL-plugin ..."
# and "LABEL-api ..."
instr_pkg() {
	a=0 b=0 c=0 n=0
	for cmd in $(find "$2" -name '.*.o.cmd' | sort); do
		src=$(compiled_source "$cmd")
		[ -n "$src" ] || continue
		flags=$(cmdflags "$cmd")
		cc1_instr "$W/instr-a.o" "$flags" "$src" >"$W/instr.a" &
		cc1_instr "$W/instr-b.o" "$flags $KCF" "$src" >"$W/instr.b"
		wait
		cc1_instr "$W/instr-c.o" "$flags $KCF_API" "$src" >"$W/instr.c"
		[ -s "$W/instr.a" ] && [ -s "$W/instr.b" ] && [ -s "$W/instr.c" ] ||
			die "callgrind of $src failed"
		a=$(add "$a" "$(cat "$W/instr.a")") b=$(add "$b" "$(cat "$W/instr.b")")
		c=$(add "$c" "$(cat "$W/instr.c")") n=$((n + 1))
	done
	[ "$n" -gt 0 ] || die "no compilation found in $2"
	printf '%s %s %.0f\n%s-plugin %s %.0f\n%s-api %s %.0f\n' "$1" "$n" "$a" "$1" "$n" "$b" \
		"$1" "$n" "$c" >>"$W/instr"
}

# instr_build LABEL: the folder of LABEL's last Kbuild build; without the
# kbuild part, one build of it now
instr_build() {
	if [ "$1" = legacy ]; then
		src=$top/tests/modules/legacy cmd='make -s -C $K M=$S'
	else
		src=$(dkms_fetch "$1") cmd=$(dkms_recipe "$1" | cut -d' ' -f2-)
	fi
	[ -n "$(find "$W/kbuild/$1" -name '*.ko' -print -quit 2>/dev/null)" ] ||
		kbuild "once-$1" 0 "$src" "$W/kbuild/$1" "$cmd"
	echo "$W/kbuild/$1"
}

# the example module and the DKMS package of one large file, whole
INSTR_PKGS="legacy v4l2loopback-dkms"

bench_instr() {
	if ! command -v valgrind >/dev/null; then
		say "no valgrind: instruction counts skipped"
		return 0
	fi
	for m in $INSTR_PKGS; do
		d=$(instr_build "$m")
		say "plugin: instruction counts of every compilation of $m (callgrind)"
		instr_pkg "$m" "$d"
	done
}

# The large TU, compiled with the flags of legacy-main.o's last build.
tu_setup() {
	cmdflags "$W/kbuild/legacy/.legacy-main.o.cmd" >"$W/tu.flags.new"
	[ -s "$W/tu.flags.new" ] || die "no compiler command in legacy-main.o's .cmd file"
	if ! cmp -s "$W/tu.flags.new" "$W/tu.flags" || [ ! -s "$W/tu/calls.txt" ]; then
		say "generating the large translation unit"
		mv "$W/tu.flags.new" "$W/tu.flags"
		sh "$top/bench/gentu.sh" "$KDIR" "$W/tu.flags" "$SYMVERS" "$W/tu" >&2
	fi
	NCALLS=$(wc -l <"$W/tu/calls.txt")
	NTULINES=$(wc -l <"$W/tu/big.c")
	# 10 of the called exports; 50,000: the same 10, every export not
	# called, and made-up names. Same uses found, only the size differs.
	awk -v n="$NCALLS" 'NR % int(n / 10) == 0 && c < 10 { print; c++ }' "$W/tu/calls.txt" >"$W/sched10.syms"
	{
		cat "$W/sched10.syms"
		grep -vxF -f "$W/tu/calls.txt" "$W/exports"
	} >"$W/sched50k.syms"
	have=$(wc -l <"$W/sched50k.syms")
	awk -v have="$have" 'BEGIN { for (i = have; i < 50000; i++) printf "ks_bench_sym_%05d\n", i }' >>"$W/sched50k.syms"
	entries <"$W/sched10.syms" >"$W/sched10.schedule"
	entries <"$W/sched50k.syms" >"$W/sched50k.schedule"
	printf 'int ks_bench_empty;\n' >"$W/tu/empty.c"
}

# tu LABEL RUN SRC [PLUGIN-FLAGS]
tu() {
	flags=$(cat "$W/tu.flags")
	measure "$1" "$2" "cd '$KDIR' && $flags -Wno-unused-result -Wno-nonnull -Wno-unused-value \
-Wno-format-extra-args ${4:-} -c -o '$W/tu/out.o' '$3'"
}

bench_tu() {
	tu_setup
	say "plugin: large TU ($NCALLS calls), $CC_RUNS pairs each"
	k10=$("$KSUNSET" --cflags -s "$W/sched10.schedule")
	k50=$("$KSUNSET" --cflags -s "$W/sched50k.schedule")
	big=$W/tu/big.c empty=$W/tu/empty.c
	tu warm 0 "$big"
	tu warm 0 "$big" "$KCF"
	for r in $(seq "$CC_RUNS"); do
		if [ $((r % 2)) -eq 1 ]; then
			tu tu "$r" "$big"
			tu tu-plugin "$r" "$big" "$KCF"
			tu tu-10 "$r" "$big" "$k10"
			tu tu-50k "$r" "$big" "$k50"
			tu empty-10 "$r" "$empty" "$k10"
			tu empty-50k "$r" "$empty" "$k50"
		else
			tu tu-plugin "$r" "$big" "$KCF"
			tu tu "$r" "$big"
			tu tu-50k "$r" "$big" "$k50"
			tu tu-10 "$r" "$big" "$k10"
			tu empty-50k "$r" "$empty" "$k50"
			tu empty-10 "$r" "$empty" "$k10"
		fi
	done
}

# --- (4) compressed modules: Debian 13's .ko.xz ------------------------

# Debian 13's newest 6.12 image and its Module.symvers, fetched once by
# scripts/fetch-debian.sh into its cache; fails with its status (77: the
# archive cannot be reached).
xz_fetch() {
	F=$top/scripts/fetch-debian.sh
	XPKG=$("$F" trixie list 'linux-image-6\.12\.[0-9]+\+deb13-amd64-unsigned' | tail -n 1) || return $?
	XREL=$(echo "$XPKG" | sed 's/^linux-image-//; s/-unsigned$//')
	root=$("$F" trixie get "$XPKG" "linux-headers-$XREL") || return $?
	XIMG=$root/usr/lib/modules/$XREL
	XSYMVERS=$root/usr/src/linux-headers-$XREL/Module.symvers
	XNMOD=$(find "$XIMG" -name '*.ko.xz' | wc -l)
	[ "$XNMOD" -gt 0 ] || die "no .ko.xz in $XPKG"
	[ "$(find "$XIMG" -name '*.ko' | wc -l)" -eq 0 ] || die "$XPKG has uncompressed modules too"
}

# The nm pipelines: batches of 100 from xargs, two at a time, each
# copying its modules into a folder of its own, decompressing them with
# one xz -d and listing them with one nm -u -A (nm cannot read a pipe;
# an xz -dc and a mkdir per module cost 10 times ksunset's CPU). Each
# batch writes a file of its own: parallel batches writing to one pipe
# were measured silently wrong, a few pairs a run, which only sets showed.
xz_cmds() {
	X=$W/xz
	cat >"$X/batch.sh" <<'EOF'
# batch.sh OUT FILE.ko.xz...: OUT.PID gets nm's "FILE.ko.xz: U SYMBOL" lines
out=$1
shift
d=$(mktemp -d)
cp --parents "$@" "$d" && find "$d" -name '*.ko.xz' -exec xz -d {} + &&
	find "$d" -name '*.ko' -exec nm -u -A {} + | sed "s|^$d||; s|\.ko:|.ko.xz:|" >"$out.$$"
r=$?
rm -rf "$d"
exit $r
EOF
	XMATCH="awk -f '$W/match.awk' '$X/syms' -"
	C_XZ_CHECK="'$KSUNSET' check -s '$X/bench.schedule' -i '$XSYMVERS' '$XIMG' >'$X/check.out' 2>&1"
	C_XZ_CHECK_J1="'$KSUNSET' check -j 1 -s '$X/bench.schedule' -i '$XSYMVERS' '$XIMG' >/dev/null 2>&1"
	C_XZ_FLOOR="'$W/floor' '$XIMG'"
	C_XZ_NM="rm -rf '$X/nm' && mkdir '$X/nm' && find '$XIMG' -name '*.ko.xz' -print0 |
xargs -0 -n 100 -P 2 sh '$X/batch.sh' '$X/nm/b' && cat '$X/nm/'b.* | $XMATCH >'$X/nm.out'"
}

bench_xz() {
	rc=0
	mkdir -p "$W/xz"
	xz_fetch 2>"$W/xz/fetch.log" || rc=$?
	if [ "$rc" -eq 77 ]; then
		say "xz: SKIPPED, Debian's archive cannot be reached: $(tail -n 1 "$W/xz/fetch.log")"
		return 0
	fi
	[ "$rc" -eq 0 ] || die "xz: cannot fetch Debian 13's image: $(tail -n 1 "$W/xz/fetch.log")"
	XLOAD0=$(cut -d' ' -f1 /proc/loadavg)
	schedule_of "$XSYMVERS" "$W/xz"
	match_awk
	xz_cmds
	say "xz: $XNMOD .ko.xz modules of $XPKG, $XZ_RUNS runs"
	measure warmup 0 "$C_XZ_FLOOR; $C_XZ_CHECK"
	for r in $(seq "$XZ_RUNS"); do
		measure xz-check "$r" "$C_XZ_CHECK"
		measure xz-check-j1 "$r" "$C_XZ_CHECK_J1"
		measure xz-floor "$r" "$C_XZ_FLOOR"
		measure xz-nm "$r" "$C_XZ_NM"
	done
	xz_cross_check
	xz_report
}

# The module/symbol pairs as sets: of scheduled exports from all three;
# of every undefined symbol from the floor and nm.
xz_cross_check() {
	X=$W/xz
	sort -u "$X/nm.out" >"$X/pairs.nm"
	"$W/floor" -p "$XIMG" >"$X/all.floor"
	eval "$XMATCH" <"$X/all.floor" | sort -u >"$X/pairs.floor"
	sed -n 's/^[A-Z]*: ksunset: "\([^"]*\)" \[\(.*\)\] .*/\2 \1/p' "$X/check.out" | sort -u >"$X/pairs.ksunset"
	sort -u "$X/all.floor" >"$X/undef.floor"
	cat "$X/nm/"b.* | awk '{ m = $1; sub(/:$/, "", m); print m, $NF }' | sort -u >"$X/undef.nm"
	XPAIRS=$(wc -l <"$X/pairs.nm")
	XUNDEF=$(wc -l <"$X/undef.nm")
	[ "$XPAIRS" -gt 0 ] || die "xz cross-check: nm found no scheduled imports"
	for f in floor ksunset; do
		agree "xz cross-check: the module/symbol pairs of nm and $f" "$X/pairs.nm" "$X/pairs.$f"
	done
	agree "xz cross-check: the undefined symbols of nm and the floor" "$X/undef.nm" "$X/undef.floor"
	say "xz cross-check: $XPAIRS scheduled module/symbol pairs, the same set from nm, the floor" \
		"and ksunset check; $XUNDEF undefined-symbol pairs, the same set from nm and the floor"
}

# xrow NAME LABEL: wall, CPU, peak RSS, and CPU against the floor's
xrow() {
	printf '| %s | %.3f | %.3f | %.1f | %.2f× |\n' "$1" "$(median "$2" 3)" "$(median "$2" 4)" \
		"$(calc "$(median "$2" 5) / 1024")" "$(paired "$2" xz-floor 4)"
}

xz_table() {
	ratio=$(paired xz-check xz-floor 4)
	echo "<!-- xz-check: written by bench/bench.sh (PARTS=xz runs it alone) -->"
	echo "### (4) Check of compressed modules: Debian 13's .ko.xz"
	echo
	echo "- Data: Debian's $XPKG, $XNMOD modules, every one .ko.xz" \
		"($(du -sm "$XIMG/kernel" | cut -f1) MiB); Module.symvers of linux-headers-$XREL" \
		"($(wc -l <"$XSYMVERS") exports); schedule: 1,000 exports (every" \
		"$(($(wc -l <"$W/xz/exports") / 1000))th by name). Page cache warm."
	echo "- ksunset commit $(git -C "$top" describe --always --dirty 2>/dev/null || echo unknown)," \
		"$(date -u +%Y-%m-%d); load average (1 min) at the start and end: $XLOAD0, $(cut -d' ' -f1 /proc/loadavg)"
	echo
	echo "Median of $XZ_RUNS runs, each run all rows in turn. Wall and CPU (user+sys, children"
	echo "included) in seconds; peak RSS of the largest process; CPU ÷ floor: median of the"
	echo "per-run ratios (other work on the machine moves times, less so ratios within a run)."
	echo
	echo "| command | wall s | CPU s | peak RSS MiB | CPU ÷ floor |"
	echo "|---|---:|---:|---:|---:|"
	xrow "\`ksunset check\` (directory)" xz-check
	xrow "\`ksunset check -j 1\`: one reading thread, as the floor" xz-check-j1
	xrow "floor: bench/floor.c, liblzma into a buffer of the indexed size, libelf, 1 thread" xz-floor
	xrow "\`xargs -0 -n 100 -P 2\`, a batch: \`cp --parents\` to a folder, one \`xz -d\`, one \`nm -u -A\`; \\| awk" xz-nm
	echo
	echo "| target | measured | |"
	echo "|---|---|---|"
	printf '| ksunset check CPU ≤ 1.2× the floor'"'"'s | %.2f× | %s |\n' "$ratio" "$(verdict "$ratio <= 1.2")"
	printf '| nm pipelines CPU ÷ ksunset check CPU (info) | %.2f× | |\n' "$(paired xz-nm xz-check 4)"
	echo
	echo "Cross-check, as sets: $XPAIRS module/symbol pairs of scheduled exports, identical from"
	echo "ksunset check, the floor and nm; all $XUNDEF undefined-symbol pairs identical from the floor and nm."
	echo "<!-- /xz-check -->"
}

# Writes the section between the xz-check markers of bench/results.md
# (at the end if there are none yet).
xz_report() {
	xz_table >"$W/xz/section"
	cat "$W/xz/section"
	put_section xz-check "$W/xz/section"
	say "wrote the xz-check section of bench/results.md; raw times in $DATA"
}

# --- report ------------------------------------------------------------

machine() {
	cpu=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo | head -n 1)
	mem=$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
	echo "- Machine: $(nproc) CPUs ($cpu), $mem memory, Linux $(uname -r)"
	echo "- Compiler: $(gcc --version | head -n 1); $(nm --version | head -n 1)"
	echo "- ksunset $("$KSUNSET" --version | head -n 1 | awk '{ print $NF }')," \
		"commit $(git -C "$top" describe --always --dirty 2>/dev/null || echo unknown); $(date -u +%Y-%m-%d)"
	echo "- Load average (1 min) at the start and end of the run: $LOAD0, $(cut -d' ' -f1 /proc/loadavg)" \
		"(other work on the machine inflates wall times, less so CPU times)"
	echo "- Data: Debian's linux-image-$VER, ${NMOD:-(not read: PARTS)} modules; $SYMVERS ($NEXP exports);" \
		"schedule: 1,000 exports (every $(($(wc -l <"$W/exports") / 1000))th by name). Page cache warm."
}

# row NAME LABEL [RUNS-NOTE]: wall, CPU, peak RSS and speed against check
row() {
	w=$(median "$2" 3) c=$(median "$2" 4) m=$(median "$2" 5)
	printf '| %s | %.3f | %.3f | %.1f | %.2f× |\n' "$1" "$w" "$c" "$(calc "$m / 1024")" \
		"$(calc "$w / $(median check 3)")"
}

verdict() {
	if [ "$(calc "($1) ? 1 : 0")" = 1 ]; then echo "PASS"; else echo "MISS"; fi
}

table_check() {
	echo "### (1) Check at distro scale"
	echo
	echo "Median of $RUNS runs ($LOOP_RUNS for nm per file: about a minute each), each run all rows in turn."
	echo "Wall and CPU (user+sys, children included) in seconds; peak RSS of the largest process."
	echo
	echo "| command | wall s | CPU s | peak RSS MiB | wall ÷ ksunset check |"
	echo "|---|---:|---:|---:|---:|"
	row "\`ksunset check\` (directory)" check
	row "\`ksunset unused --counts\`" unused
	row "(a) \`find -print0 \\| xargs -0 nm -u -A \\| awk\`" xargs
	row "(b) \`nm -u -A\` per file in a shell loop, \\| awk" loop
	row "(c) floor: bench/floor.c, libelf, 1 thread" floor
	row "\`ksunset check\` modules.order, all $NMOD" order
	row "\`ksunset check\` modules.order, 1/4 and the largest ($NQUARTER)" quarter
	row "\`ksunset check\` modules.order, all $NMOD eight times over" x8
	row "\`ksunset check -j 1\` modules.order, all $NMOD" order-j1
	row "\`ksunset check -j 1\` modules.order, all $NMOD eight times over" x8-j1
	row "\`ksunset check\` the largest module alone (${BIG##*/})" big
	row "\`ksunset check\` no module: the schedule and Module.symvers only" none
	echo
	echo "Cross-check: $NPAIRS module/symbol pairs, identical from nm (xargs${loop:+ and per file}), the floor and ksunset check; ksunset unused's import counts equal nm's for every export."
	echo
}

table_plugin() {
	echo "### (2) Plugin overhead, (3) schedule lookup"
	echo
	echo "Paired runs, alternating order, $CC_RUNS pairs ($DKMS_RUNS for the DKMS packages);"
	echo "ratio = median of the per-pair ratios. Kbuild: each package's own build command"
	echo "on a fresh copy of its source, with and without"
	echo "KCFLAGS=\"\$(ksunset --cflags -s 1,000-export schedule -s examples/schedules/ksunset.schedule)\"."
	echo "DKMS packages: Debian 12's, fetched with apt-get download (v4l2loopback: 1 module"
	echo "from one large file; gost-crypto: 6 modules; xtables-addons: 24 modules)."
	echo "Large TU: $NTULINES lines, $NCALLS calls of distinct exported functions"
	echo "(bench/gentu.sh), compiled with legacy-main.o's own gcc command line from Kbuild."
	echo
	instr_rows
	echo "Times:"
	echo
	echo "| build | wall s without | wall s with | wall ratio | CPU s without | CPU s with | CPU ratio |"
	echo "|---|---:|---:|---:|---:|---:|---:|"
	prow "Kbuild tests/modules/legacy" kb-legacy kb-legacy-plugin
	for pkg in $DKMS; do
		prow "Kbuild $pkg" "kb-$pkg" "kb-$pkg-plugin"
	done
	prow "large TU, 1,000-export schedule" tu tu-plugin
	prow "large TU, schedule 50,000 vs 10 entries" tu-10 tu-50k
	prow "empty TU, schedule 50,000 vs 10 entries" empty-10 empty-50k
	echo
	per=$(calc "(($(median tu-50k 4) - $(median tu-10 4)) - ($(median empty-50k 4) - $(median empty-10 4))) * 1e6 / $NCALLS")
	load=$(calc "($(median empty-50k 4) - $(median empty-10 4)) * 1000")
	printf 'Schedule of 50,000 vs 10 entries: %.1f ms more CPU per compilation to load it (empty TU);\n' "$load"
	printf 'per call, with that subtracted: %+.2f µs (large TU; about zero: the lookup does not grow with the schedule).\n\n' "$per"
}

instr_rows() {
	[ -s "$W/instr" ] || return 0
	echo "Instructions of cc1 (valgrind --tool=callgrind) for every file a package's Kbuild"
	echo "build compiles (its .mod.c files too), each with its own gcc command line:"
	echo
	echo "| package | files | without | with the plugin | ratio | with api | ratio |"
	echo "|---|---:|---:|---:|---:|---:|---:|"
	for m in $INSTR_PKGS; do
		set -- $(sed -n "s/^$m //p" "$W/instr") $(sed -n "s/^$m-plugin //p" "$W/instr") \
			$(sed -n "s/^$m-api //p" "$W/instr")
		[ $# -eq 6 ] || continue
		printf '| %s | %s | %s | %s | %.4f | %s | %.4f |\n' "$m" "$1" "$2" "$4" \
			"$(calc "$4 / $2")" "$6" "$(calc "$6 / $2")"
	done
	echo
}

# prow NAME WITHOUT WITH: medians, and the medians of the paired ratios
prow() {
	printf '| %s | %.3f | %.3f | %.4f | %.3f | %.3f | %.4f |\n' "$1" \
		"$(median "$2" 3)" "$(median "$3" 3)" "$(paired "$3" "$2" 3)" \
		"$(median "$2" 4)" "$(median "$3" 4)" "$(paired "$3" "$2" 4)"
}

table_targets() {
	ck=$(median check 3) xa=$(median xargs 3) fl=$(median floor 3)
	rx=$(calc "$(median x8 5) / $(median order 5)")
	per=$(calc "($(median x8 5) - $(median order 5)) * 1024 / ($NMOD * 7)")
	rx1=$(calc "$(median x8-j1 5) / $(median order-j1 5)")
	per1=$(calc "($(median x8-j1 5) - $(median order-j1 5)) * 1024 / ($NMOD * 7)")
	rb=$(calc "$(median order 5) / $(median big 5)")
	echo "### Targets"
	echo
	idle=$(calc "(1 - $(median kb-legacy 4) / $(median kb-legacy 3)) * 100")
	idle=$(calc "$idle < 0 ? 0 : $idle")
	echo "Instruction counts are exact, so the plugin's verdicts use them. Times are not: on"
	echo "a shared machine the CPU-time ratio of the same build moves by a percent or two"
	echo "from one \`make bench\` to the next (see the Notes), more than the 1% to be judged;"
	printf 'they are shown with the range of their pairs. A Kbuild build here leaves the CPU idle %.0f%%\n' "$idle"
	echo "of its wall time, which the plugin does not change."
	echo
	echo "| target | measured | |"
	echo "|---|---|---|"
	printf '| ksunset check ≥ 7× faster than (a) xargs nm | %.2f× | %s |\n' "$(calc "$xa / $ck")" \
		"$(verdict "$xa / $ck >= 7")"
	printf '| ksunset check no slower than (c) the floor | %.3f s vs %.3f s | %s |\n' "$ck" "$fl" \
		"$(verdict "$ck <= $fl")"
	printf '| peak RSS not growing with the number of modules (8× the list ÷ once ≤ 1.10) | %.3f (%.0f bytes a module) | %s |\n' \
		"$rx" "$per" "$(verdict "$rx <= 1.10")"
	printf '| the same with one reading thread (info) | %.3f (%.0f bytes a module) | |\n' "$rx1" "$per1"
	printf '| peak RSS, all modules ÷ the largest alone with the tables (info) | %.3f | |\n' "$rb"
	for m in $INSTR_PKGS; do
		set -- $(sed -n "s/^$m //p" "$W/instr") $(sed -n "s/^$m-plugin //p" "$W/instr")
		[ $# -eq 4 ] || continue
		r=$(calc "$4 / $2")
		printf '| plugin overhead ≤ 1%%, %s, every compilation: instructions | %+.2f%% | %s |\n' "$m" \
			"$(calc "($r - 1) * 100")" "$(verdict "$r <= 1.01")"
		set -- $(sed -n "s/^$m-api //p" "$W/instr")
		[ $# -eq 2 ] || continue
		printf '| plugin with api, %s, every compilation: instructions (info) | %+.2f%% |  |\n' \
			"$m" "$(calc "($2 / $(sed -n "s/^$m //p" "$W/instr" | cut -d' ' -f2) - 1) * 100")"
	done
	for p in Kbuild_legacy:kb-legacy $(for k in $DKMS; do echo "Kbuild_$k:kb-$k"; done) large_TU:tu; do
		rc=$(paired "${p#*:}-plugin" "${p#*:}" 4) rw=$(paired "${p#*:}-plugin" "${p#*:}" 3)
		printf '| plugin overhead, %s: CPU (wall); pairs from %s to %s (info) | %+.1f%% (%+.1f%%) | |\n' \
			"$(echo "${p%%:*}" | tr _ ' ')" \
			"$(pairrange "${p#*:}-plugin" "${p#*:}" 4 head)" "$(pairrange "${p#*:}-plugin" "${p#*:}" 4 tail)" \
			"$(calc "($rc - 1) * 100")" "$(calc "($rw - 1) * 100")"
	done
	echo
}

# A run of some parts only: their tables, and bench/results.md untouched.
report_parts() {
	{
		echo "# make bench, PARTS=$PARTS"
		echo
		machine
		echo
		if part instr; then instr_rows; fi
	} >"$W/results.md"
	cat "$W/results.md"
	say "PARTS=$PARTS: wrote $W/results.md; bench/results.md is written by a run of every part"
}

report() {
	notes=""
	[ -f "$top/bench/results.md" ] && notes=$(sed -n '/^## Notes/,$p' "$top/bench/results.md")
	{
		echo "# make bench results"
		echo
		echo "Written by \`make bench\` (bench/bench.sh); the Notes section is kept from run to run."
		echo
		machine
		echo
		table_check
		table_plugin
		table_targets
	} >"$W/results.md"
	cat "$W/results.md"
	{
		cat "$W/results.md"
		[ -n "$notes" ] && printf '%s\n' "$notes"
	} >"$top/bench/results.md"
	say "wrote bench/results.md; raw times in $DATA"
}

start=$(date +%s)
LOAD0=$(cut -d' ' -f1 /proc/loadavg)
setup
if part check; then bench_check; fi
if part kbuild; then bench_kbuild; fi
if part instr; then bench_instr; fi
if part tu; then bench_tu; fi
if part check && part kbuild && part instr && part tu; then
	report
elif part check || part kbuild || part instr || part tu; then
	report_parts
fi
if part xz; then bench_xz; fi
say "done in $(($(date +%s) - start)) s"
