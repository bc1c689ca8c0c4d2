#!/bin/sh
# Source lines from a module's DWARF (dwarf/dwarf.c), for modules built
# without the plugin: a real Kbuild module (tests/dwarf/kmod) and objects
# that clang-14, gcc and the cross compilers found here make
# (tests/dwarf/clang) carry "dwarf:" comments stating each expected use;
# compressed copies give the same; a stripped copy gets one hint, or its
# separate debug file (by build-id, path, .gnu_debuglink; Debian's real
# -dbg package); corrupt DWARF is no crash; --locations chooses.
. "$(dirname "$0")/lib.sh"
KSUNSET=${KSUNSET:-$TOP/build/ksunset}
PLUGIN=${PLUGIN:-$TOP/build/ksunset.so}
USES="python3 $TOP/tests/shell/dwarf-uses.py"
LC_ALL=C
export LC_ALL
K=$(kdir)

# uses_of SOURCE REPORT-ARGS...: the uses check reports, as dwarf-uses.py
uses_of() {
	src=$1
	shift
	"$KSUNSET" check --today 2026-12-04 --format json "$@" 2>"$TMP/stderr" | $USES got "$src"
}

# A schedule that lists every symbol the module imports.
schedule_of() {
	nm -u "$1" | awk '{ print $2 }' | sort -u >"$TMP/imports"
	schedule_every "$TMP/imports" "$2"
}

kbuild_part() {
	d="$TMP/kmod"
	if ! kbuild "$TOP/tests/dwarf/kmod" "$d"; then
		fail "kmod: build without the plugin"; sed 's/^/  | /' "$d.log" | tail -20; return
	fi
	ko="$d/dwarf_demo.ko"
	S="$TMP/all.schedule"
	# the same module with other code: another build-id
	kbuild "$TOP/tests/dwarf/kmod" "$TMP/other" KCFLAGS=-DDEMO_OTHER &&
		cp "$TMP/other/dwarf_demo.ko" "$TMP/kmod-other.ko"
	schedule_of "$ko" "$S"
	$USES expect "$TOP"/tests/dwarf/kmod/*.[ch] >"$TMP/want"
	uses_of dwarf -s "$S" "$ko" >"$TMP/got"
	expect_file_eq "kmod: every use at the line its dwarf: comment states" "$TMP/got" "$TMP/want"

	"$KSUNSET" check --today 2026-12-04 -s "$S" "$ko" >"$TMP/text" 2>&1
	expect_grep "kmod: text names the initializer and member" "$TMP/text" \
		"dwarf_demo.c:18:37: warning: address of 'noop_llseek' in the initializer of 'demo_fops' (.llseek)"
	# __fentry__, __x86_return_thunk, __stack_chk_fail: no location, no
	# hint; the static key named only in __jump_table: at its branch
	n=$(grep -c 'note: no source location' "$TMP/text")
	expect_eq "kmod: no hint: every import placed but the compiler's" "$n" 0
	if grep -q "in the initializer of '[^']*' *[(]*[^)]*[)]* .*cpuset" "$TMP/text" ||
		grep -A1 'cpuset_cgrp_subsys_enabled_key' "$TMP/text" | grep -q initializer; then
		fail "kmod: a __jump_table entry was taken for a variable"
	else pass "kmod: __jump_table belongs to no variable"; fi
	grep -A1 '"__fentry__"' "$TMP/text" | tail -n 1 >"$TMP/next"
	if grep -q '^WARNING' "$TMP/next"; then pass "kmod: __fentry__ has no location by rule"
	else fail "kmod: __fentry__ got a location or a hint: $(cat "$TMP/next")"; fi

	for z in xz zstd gzip; do
		command -v $z >/dev/null || { skip "kmod: no $z"; continue; }
		ext=$(case $z in xz) echo xz ;; zstd) echo zst ;; gzip) echo gz ;; esac)
		$z -c "$ko" >"$d/dwarf_demo.ko.$ext"
		uses_of dwarf -s "$S" "$d/dwarf_demo.ko.$ext" >"$TMP/got"
		expect_file_eq "kmod: .ko.$ext decompressed to memory, same lines" "$TMP/got" "$TMP/want"
		rm -f "$d/dwarf_demo.ko.$ext"
	done

	"$KSUNSET" users --today 2026-12-04 nonseekable_open -- "$ko" >"$TMP/users" 2>&1
	expect_grep "kmod: users gives DWARF's line" "$TMP/users" \
		"dwarf_demo.c:18:37: note: uses 'nonseekable_open' (addr) in the initializer of 'demo_fops' (.open)"

	"$KSUNSET" check --today 2026-12-04 -s "$S" --locations=plugin "$ko" >"$TMP/text" 2>&1
	expect_eq "kmod: --locations=plugin reads no DWARF" \
		"$(grep -c 'dwarf_demo.c:' "$TMP/text"):$(grep -c 'not built with the ksunset plugin' "$TMP/text")" "0:1"

	strip --strip-debug -o "$d/stripped.ko" "$ko"
	"$KSUNSET" check --today 2026-12-04 -s "$S" --debug-dir "$TMP/none" "$d/stripped.ko" \
		>"$TMP/text" 2>&1
	expect_eq "stripped: one hint for the module, no lines" \
		"$(grep -c 'no DWARF: stripped' "$TMP/text"):$(grep -c 'dwarf_demo.c:' "$TMP/text")" "1:0"

	debug_dirs "$ko" "$d/stripped.ko" "$S"
	debug_links "$ko" "$S"

	corrupt "$ko" "$d/corrupt.ko"
	"$KSUNSET" check --today 2026-12-04 -s "$S" "$d/corrupt.ko" >"$TMP/text" 2>&1
	rc=$?
	if [ $rc -le 1 ] && ! grep -q 'Sanitizer\|runtime error' "$TMP/text"; then
		pass "corrupt DWARF: no crash (exit $rc)"
	else fail "corrupt DWARF: exit $rc"; sed 's/^/  | /' "$TMP/text" | tail -5; fi

	plugin_part "$S"
}

# debug_dirs KO STRIPPED SCHEDULE: --debug-dir finds KO's DWARF for its
# stripped copy by build-id, by path (also for a .ko.xz) and, for a module
# of an unpacked package, by its path from lib/modules/<release>/ on; and
# refuses a file with another build-id.
debug_dirs() {
	n_want=$(grep -c . "$TMP/want")
	id=$(readelf -n "$1" | awk '/Build ID/ { print $3 }')
	mkdir -p "$TMP/dbg/.build-id/$(echo "$id" | cut -c1-2)"
	cp "$1" "$TMP/dbg/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug"
	n=$("$KSUNSET" check -s "$3" --debug-dir "$TMP/dbg" "$2" 2>&1 | grep -c 'dwarf_demo.c:\|helper.h:')
	expect_eq "--debug-dir: by build-id" "$n" "$n_want"
	real=$(cd "$(dirname "$2")" && pwd -P)/$(basename "$2")
	mkdir -p "$TMP/dbg2$(dirname "$real")"
	cp "$1" "$TMP/dbg2$real"
	xz -k "$2"
	for f in "$2" "$2.xz"; do
		n=$("$KSUNSET" check -s "$3" --debug-dir "$TMP/dbg2" "$f" 2>&1 | grep -c 'dwarf_demo.c:\|helper.h:')
		expect_eq "--debug-dir: by path, $(basename "$f")" "$n" "$n_want"
	done
	rm -f "$2.xz"
	# the module as a package unpacked anywhere puts it (merged /usr), its
	# debug file as Debian's -dbg packages do, or under usr/ too
	sub=lib/modules/6.1.0-test/kernel/drivers/misc
	mkdir -p "$TMP/pkg/usr/$sub" "$TMP/dbg3/$sub" "$TMP/dbg4/usr/$sub"
	xz -c "$2" >"$TMP/pkg/usr/$sub/dwarf_demo.ko.xz"
	cp "$1" "$TMP/dbg3/$sub/dwarf_demo.ko"
	cp "$1" "$TMP/dbg4/usr/$sub/dwarf_demo.ko"
	for dir in dbg3 dbg4; do
		n=$("$KSUNSET" check -s "$3" --debug-dir "$TMP/$dir" "$TMP/pkg/usr/$sub/dwarf_demo.ko.xz" \
			2>&1 | grep -c 'dwarf_demo.c:\|helper.h:')
		expect_eq "--debug-dir: by the path from lib/modules/ on, a .ko.xz elsewhere ($dir)" \
			"$n" "$n_want"
	done
	cp "$TMP/kmod-other.ko" "$TMP/dbg3/$sub/dwarf_demo.ko"
	"$KSUNSET" check -s "$3" --debug-dir "$TMP/dbg3" "$TMP/pkg/usr/$sub/dwarf_demo.ko.xz" \
		>"$TMP/text" 2>&1
	expect_eq "--debug-dir: another build-id in lib/modules/ is refused" \
		"$(grep -c 'dwarf_demo.c:' "$TMP/text"):$(grep -c 'stripped?' "$TMP/text")" "0:1"
	cp "$TMP/kmod-other.ko" "$TMP/dbg2$real"
	"$KSUNSET" check -s "$3" --debug-dir "$TMP/dbg2" "$2" >"$TMP/text" 2>&1
	expect_eq "--debug-dir: another build-id is refused" \
		"$(grep -c 'dwarf_demo.c:' "$TMP/text"):$(grep -c 'stripped?' "$TMP/text")" "0:1"
}

# debug_links KO SCHEDULE: KO's DWARF kept by objcopy in m.debug, which the
# .gnu_debuglink of its stripped copy m.ko names, is found where GDB looks:
# beside m.ko, in its .debug/, under --debug-dir; a copy whose CRC is not
# the link's (one byte more) is passed over, and said so when it is all
# there is.
debug_links() {
	n_want=$(grep -c . "$TMP/want")
	l="$TMP/link"
	mkdir -p "$l/.debug"
	objcopy --only-keep-debug "$1" "$l/m.debug"
	objcopy --strip-debug --add-gnu-debuglink="$l/m.debug" "$1" "$l/m.ko"
	# lines DEBUG-DIR SCHEDULE: lines found, ":", lines saying CRC
	lines() {
		"$KSUNSET" check -s "$2" --debug-dir "$1" "$l/m.ko" >"$TMP/text" 2>&1
		echo "$(grep -c 'dwarf_demo.c:\|helper.h:' "$TMP/text"):$(grep -c 'CRC' "$TMP/text")"
	}
	expect_eq ".gnu_debuglink: beside the module" "$(lines "$TMP/none" "$2")" "$n_want:0"
	mv "$l/m.debug" "$l/.debug/m.debug"
	{ cat "$l/.debug/m.debug" && printf x; } >"$l/m.debug"
	expect_eq ".gnu_debuglink: in .debug/, a copy with another CRC beside passed over" \
		"$(lines "$TMP/none" "$2")" "$n_want:0"
	real=$(cd "$l" && pwd -P)
	mkdir -p "$TMP/dbg5$real"
	mv "$l/.debug/m.debug" "$TMP/dbg5$real/m.debug"
	expect_eq ".gnu_debuglink: DIR + the module's folder" "$(lines "$TMP/dbg5" "$2")" "$n_want:0"
	rm "$TMP/dbg5$real/m.debug"
	expect_eq ".gnu_debuglink: only a copy with another CRC: no lines, a note" \
		"$(lines "$TMP/dbg5" "$2")" "0:1"
	expect_grep ".gnu_debuglink: the note names the file" "$TMP/text" \
		"m.ko: note: no source lines from DWARF: $real/m.debug: .gnu_debuglink CRC mismatch"
}

# corrupt IN OUT: IN with its .debug_info and .debug_line overwritten by a
# pattern, keeping the ELF valid.
corrupt() {
	python3 - "$1" "$2" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
shoff, = struct.unpack_from("<Q", b, 0x28)
shnum, shstrndx = struct.unpack_from("<HH", b, 0x3c)
sh = [struct.unpack_from("<IIQQQQIIQQ", b, shoff + i * 64) for i in range(shnum)]
stro = sh[shstrndx][4]
for s in sh:
    name = b[stro + s[0]:b.index(b"\0", stro + s[0])].decode()
    if name in (".debug_info", ".debug_line", ".debug_abbrev"):
        for i in range(s[4] + 12, s[4] + s[5], 7):
            b[i] = 0xff
open(sys.argv[2], "wb").write(b)
PY
}

# The same module built with the plugin: its records win (auto); with
# --locations=dwarf, DWARF gives the lines the comments state.
plugin_part() {
	[ -f "$PLUGIN" ] || { skip "plugin: not built"; return; }
	d="$TMP/kmod-plugin"
	if ! kbuild "$TOP/tests/dwarf/kmod" "$d" \
		KCFLAGS="-fplugin=$PLUGIN -fplugin-arg-ksunset-schedule=$1"; then
		fail "kmod: build with the plugin"; return
	fi
	uses_of plugin -s "$1" "$d/dwarf_demo.ko" >"$TMP/plugin"
	n=$(uses_of dwarf -s "$1" "$d/dwarf_demo.ko" | wc -l)
	expect_eq "plugin build: records win, no DWARF for what they place" \
		"$(($(wc -l <"$TMP/plugin") > 8)):$n" "1:0"
	uses_of dwarf -s "$1" --locations=dwarf "$d/dwarf_demo.ko" >"$TMP/got"
	expect_file_eq "plugin build: --locations=dwarf" "$TMP/got" "$TMP/want"
}

clang_part() {
	cp -r "$TOP/tests/dwarf/clang" "$TMP/clang"
	printf 'What: ext_open ext_call ext_counter __wrapped_call\nWhen: 2030-01-01\n' >"$TMP/c.schedule"
	$USES expect "$TMP/clang/user.c" >"$TMP/want"
	for cc in gcc clang-14; do
		if ! command -v $cc >/dev/null; then
			skip "$cc: not installed (scripts/install-deps.sh fuzz installs clang-14)"
			continue
		fi
		(cd "$TMP/clang" && $cc -g -O2 -Iinclude -c user.c -o user-$cc.o) || {
			fail "$cc: compile"; continue; }
		uses_of dwarf -s "$TMP/c.schedule" "$TMP/clang/user-$cc.o" >"$TMP/got"
		expect_file_eq "$cc -g -O2 -c: every use at its stated line" "$TMP/got" "$TMP/want"
	done
	# dwarf/dwarfrel.c's rows and byte orders: REL (i386, armhf), big
	# endian (s390x), RISC-V's label differences (ADD/SUB pairs of linker
	# relaxation), compressed DWARF sections; and each machine's call
	# relocations (dwarf/dwarf.c's call_types[]); each missing compiler
	# skipped. armhf loads ext_counter's address from a literal pool that
	# the next line's code reads: its line is that one.
	sed 's/^user.c:25 ext_counter data/user.c:26 ext_counter data/' "$TMP/want" | sort \
		>"$TMP/want-arm"
	for cc in "gcc -gz=zlib" "gcc -m32" "clang-14 -gz=zlib --target=aarch64-linux-gnu" \
		"clang-14 --target=riscv64-linux-gnu" aarch64-linux-gnu-gcc s390x-linux-gnu-gcc \
		arm-linux-gnueabihf-gcc; do
		o=$TMP/clang/user-$(echo "$cc" | tr -c 'a-z0-9\n' _).o
		if ! (cd "$TMP/clang" && $cc -g -O2 -Iinclude -c user.c -o "$o") 2>/dev/null; then
			skip "$cc: cannot compile here"
			continue
		fi
		uses_of dwarf -s "$TMP/c.schedule" "$o" >"$TMP/got"
		want=$TMP/want
		case $cc in arm-*) want=$TMP/want-arm ;; esac
		expect_file_eq "$cc: every use at its stated line, of its kind" "$TMP/got" "$want"
	done
	# split DWARF, DWARF 5's skeleton units and GCC's DWARF 4 ones: the
	# DIEs are in .dwo files, not read: one note, and no line
	for v in 5 4; do
		o=$TMP/clang/user-split$v.o
		if ! (cd "$TMP/clang" && gcc -gdwarf-$v -gsplit-dwarf -O2 -Iinclude -c user.c -o "$o"); then
			fail "gcc -gdwarf-$v -gsplit-dwarf: compile"; continue
		fi
		"$KSUNSET" check --today 2026-12-04 -s "$TMP/c.schedule" "$o" >"$TMP/text" 2>&1
		expect_eq "gcc -gdwarf-$v -gsplit-dwarf: one note that .dwo files are not read, no line" \
			"$(grep -c "no source lines from DWARF: split DWARF: its DIEs are in .dwo" \
				"$TMP/text"):$(grep -c 'user.c:\|kernel.h:' "$TMP/text")" "1:0"
	done
	# a machine whose relocations are not read (MIPS; its DWARF sections
	# are SHT_MIPS_DWARF): one note, and no line
	o=$TMP/clang/user-mips.o
	if [ "${KSUNSET_DWARF_READER:-}" = libdw ]; then
		skip "mips: libdwfl relocates MIPS itself"
	elif (cd "$TMP/clang" && clang-14 --target=mips-linux-gnu -g -O2 -Iinclude -c user.c \
		-o "$o") 2>/dev/null; then
		"$KSUNSET" check --today 2026-12-04 -s "$TMP/c.schedule" "$o" >"$TMP/text" 2>&1
		expect_eq "mips: one note that its relocations are not read, no line" \
			"$(grep -c "no source lines from DWARF: .*relocations are not read" \
				"$TMP/text"):$(grep -c 'user.c:' "$TMP/text")" "1:0"
	else skip "clang-14 --target=mips-linux-gnu: cannot compile here"; fi
	[ -f "$TMP/clang/user-clang-14.o" ] || return 0
	# the traps this object is for are really in it
	if readelf -S "$TMP/clang/user-clang-14.o" | grep -q debug_aranges; then
		fail "clang-14: has .debug_aranges (the CU walk is not tested)"
	else pass "clang-14: no .debug_aranges, CUs walked"; fi
	if command -v llvm-dwarfdump-14 >/dev/null; then
		llvm-dwarfdump-14 --debug-info "$TMP/clang/user-clang-14.o" >"$TMP/dump"
		expect_grep "clang-14: variables located by DW_OP_addrx" "$TMP/dump" "DW_OP_addrx"
	fi
}

# A module of several units (tests/dwarf/units), of which only the units
# holding a use are read: each way of telling a use's unit (.debug_aranges,
# a static table's file symbol, a global table's function) and the
# fallback (a table of imports only: every unit) gives the same lines.
units_part() {
	d="$TMP/units"
	if ! kbuild "$TOP/tests/dwarf/units" "$d"; then
		fail "units: build"; sed 's/^/  | /' "$d.log" | tail -20; return
	fi
	for m in "dwarf_units units_main.c units_global.c" "units_data units_data.c"; do
		# shellcheck disable=SC2086 # the module, then its sources
		set -- $m
		ko=$1
		shift
		schedule_of "$d/$ko.ko" "$TMP/$ko.schedule"
		(cd "$TOP/tests/dwarf/units" && $USES expect "$@") >"$TMP/want"
		uses_of dwarf -s "$TMP/$ko.schedule" "$d/$ko.ko" >"$TMP/got"
		expect_file_eq "units: $ko.ko: every use at the line its dwarf: comment states" \
			"$TMP/got" "$TMP/want"
	done
	n=$(readelf --debug-dump=info "$d/dwarf_units.ko" 2>/dev/null | grep -c 'Compilation Unit @')
	expect_eq "units: dwarf_units.ko has a unit more than those holding uses" "$n" 3
}

# Debian's own: stripped modules of linux-image-6.1.0-50-amd64-unsigned
# with --debug-dir at the usr/lib/debug of linux-image-6.1.0-50-amd64-dbg
# (its modules at DIR/lib/modules/<release>/..., no .build-id links for
# them), both unpacked by scripts/fetch-debian.sh into its cache (never
# installed; 860 MB the first time). The lines are those that objdump -dl
# gives for the relocations in the -dbg modules.
debian_part() {
	rel=6.1.0-50-amd64
	root=$("$TOP/scripts/fetch-debian.sh" bookworm get "linux-image-$rel-dbg" \
		"linux-image-$rel-unsigned" 2>"$TMP/fetch.log")
	rc=$?
	if [ $rc -ne 0 ]; then
		skip "Debian $rel: cannot fetch its -dbg and -unsigned packages (status $rc): $(tail -n 1 "$TMP/fetch.log")"
		return
	fi
	m=$root/lib/modules/$rel/kernel
	set -- "$m/net/netfilter/xt_pkttype.ko" "$m/net/vmw_vsock/vsock_loopback.ko" "$m/fs/ext4/ext4.ko"
	n=$(for ko in "$@"; do readelf -S "$ko"; done | grep -c '\.debug_info')
	expect_eq "Debian $rel: its modules carry no DWARF" "$n" 0
	printf 'What: %s\n %s\n %s\n %s\n %s\n %s\n %s\nWhen: 2030-01-01\n' xt_register_match \
		xt_unregister_match vsock_core_register vsock_core_unregister crc16 register_filesystem \
		unregister_filesystem >"$TMP/deb.schedule"
	cat >"$TMP/want" <<-'EOF'
		fs/ext4/super.c:3239:8: 'crc16' in 'ext4_group_desc_csum'
		fs/ext4/super.c:3240:8: 'crc16' in 'ext4_group_desc_csum'
		fs/ext4/super.c:3241:8: 'crc16' in 'ext4_group_desc_csum'
		fs/ext4/super.c:3245:9: 'crc16' in 'ext4_group_desc_csum'
		fs/ext4/super.c:7264:12: 'register_filesystem' in 'register_as_ext2'
		fs/ext4/super.c:7272:2: 'unregister_filesystem' in 'unregister_as_ext2'
		fs/ext4/super.c:7293:12: 'register_filesystem' in 'register_as_ext3'
		fs/ext4/super.c:7301:2: 'unregister_filesystem' in 'unregister_as_ext3'
		fs/ext4/super.c:7380:8: 'register_filesystem' in 'ext4_init_fs'
		fs/ext4/super.c:7414:2: 'unregister_filesystem' in 'ext4_exit_fs'
		net/netfilter/xt_pkttype.c:52:9: 'xt_register_match' in 'pkttype_mt_init'
		net/netfilter/xt_pkttype.c:57:2: 'xt_unregister_match' in 'pkttype_mt_exit'
		net/vmw_vsock/vsock_loopback.c:135:8: 'vsock_core_register' in 'vsock_loopback_init'
		net/vmw_vsock/vsock_loopback.c:151:2: 'vsock_core_unregister' in 'vsock_loopback_exit'
	EOF
	# got ARGS...: check's lines, as in $TMP/want
	got() {
		"$KSUNSET" check --today 2026-12-04 -s "$TMP/deb.schedule" "$@" 2>&1 |
			sed -n "s|^/debian/build/build_amd64_none_amd64/\([^ ]*\) warning: call to \('[^']*' in '[^']*'\).*|\1 \2|p" |
			sort
	}
	got --debug-dir "$root/usr/lib/debug" "$@" >"$TMP/got"
	expect_file_eq "Debian $rel: --debug-dir DIR/lib/modules/$rel/..., each use at objdump's line" \
		"$TMP/got" "$TMP/want"
	# the same modules as merged /usr installs them, compressed
	u=$TMP/deb/usr/lib/modules/$rel/kernel
	mkdir -p "$u/net/netfilter" "$u/net/vmw_vsock" "$u/fs/ext4"
	for ko in "$@"; do xz -0 -c "$ko" >"$u/${ko#"$m/"}.xz"; done
	got --debug-dir "$root/usr/lib/debug" "$u"/net/netfilter/xt_pkttype.ko.xz \
		"$u"/net/vmw_vsock/vsock_loopback.ko.xz "$u"/fs/ext4/ext4.ko.xz >"$TMP/got"
	expect_file_eq "Debian $rel: the same for .ko.xz under usr/lib/modules" "$TMP/got" "$TMP/want"
	n=$("$KSUNSET" check -s "$TMP/deb.schedule" --debug-dir "$TMP/none" "$@" 2>&1 |
		grep -c 'no DWARF: stripped?')
	expect_eq "Debian $rel: without its -dbg, one hint a module" "$n" 3
}

if [ -n "$K" ]; then
	kbuild_part
	units_part
else skip "no kernel headers in /usr/src"; fi
clang_part
debian_part
