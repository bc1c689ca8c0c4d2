#!/bin/sh
# ksunset's layout and relocation of a module's DWARF and its choice of
# units (dwarf/dwarfrel.c, dwarfpick.c) against libdwfl's, forced by
# KSUNSET_DWARF_READER=libdw (libdwfl lays the sections out and
# relocates every unit for libdw): t-dwarf's modules and objects give the lines their comments
# state either way, and real modules give byte-identical reports both
# ways: a fixture of the project's own (tests/kbuild/dwarfunits), the shared
# DKMS packages ($KSUNSET_CORPUS, else ../shared/corpus: dkms-packages.tsv)
# built without the plugin, and every module of Debian 12's 6.1 -dbg
# package (scripts/fetch-debian.sh; skipped when the archive cannot be
# reached).
. "$(dirname "$0")/lib.sh"
KSUNSET=${KSUNSET:-$TOP/build/ksunset}
# the DKMS corpus: KSUNSET_CORPUS, else ../shared/corpus beside the tree
TSV=${TSV:-${KSUNSET_CORPUS:-$TOP/../shared/corpus}/dkms-packages.tsv}
LC_ALL=C
export LC_ALL

# t-dwarf itself, with libdwfl's relocation: its lines, PASS and FAIL as its own
KSUNSET_DWARF_READER=libdw sh "$TOP/tests/shell/t-dwarf.sh" >"$TMP/t-dwarf" 2>&1
rc=$?
sed -n 's/^\(PASS\|FAIL\|SKIP\) t-dwarf: /\1 t-dwarf-libdw: libdw: /p' "$TMP/t-dwarf"
if grep -q '^FAIL' "$TMP/t-dwarf" || [ "$rc" -ne 0 ]; then
	fail "t-dwarf with KSUNSET_DWARF_READER=libdw exited $rc"
	grep -v '^PASS\|^SKIP' "$TMP/t-dwarf" | tail -n 20 | sed 's/^/  | /'
fi

# same NAME CMD ARGS...: ksunset CMD's output (stdout, then stderr) is the
# same with ksunset's relocation and with libdwfl's, and holds DWARF lines.
same() {
	name=$1
	shift
	"$KSUNSET" "$@" >"$TMP/own" 2>"$TMP/own.err"
	r_own=$?
	KSUNSET_DWARF_READER=libdw "$KSUNSET" "$@" >"$TMP/lib" 2>"$TMP/lib.err"
	r_lib=$?
	lines=$(grep -c '"source": *"dwarf"\|: note: uses ' "$TMP/own")
	if [ "$r_own" -gt 1 ] || [ "$lines" -eq 0 ]; then
		fail "$name: exit $r_own, $lines report lines with DWARF locations"
		tail -n 5 "$TMP/own.err" | sed 's/^/  | /'
	elif [ "$r_own" = "$r_lib" ] && cmp -s "$TMP/own" "$TMP/lib" &&
		cmp -s "$TMP/own.err" "$TMP/lib.err"; then
		pass "$name: byte-identical both ways ($lines report lines with DWARF locations)"
	else
		fail "$name: ksunset's relocation (exit $r_own) and libdwfl's (exit $r_lib) differ"
		diff "$TMP/own" "$TMP/lib" | head -n 10 | sed 's/^/  | /'
		diff "$TMP/own.err" "$TMP/lib.err" | head -n 10 | sed 's/^/  | /'
	fi
}

K=$(kdir)
# A module of the project's own, six units and their uses of calls, data
# and initializers: no download needed, so a wrong unit choice or
# relocation fails make check wherever it runs.
fixture_part() {
	[ -n "$K" ] || { skip "fixture: no kernel headers in /usr/src"; return; }
	if ! kbuild "$TOP/tests/kbuild/dwarfunits" "$TMP/du"; then
		fail "fixture: build against $K"
		tail -n 20 "$TMP/du.log" | sed 's/^/  | /'
		return
	fi
	awk '{ print $2 }' "$K/Module.symvers" | sort -u >"$TMP/exports"
	schedule_every "$TMP/exports" "$TMP/du.schedule"
	same "fixture: check of dwarfunits.ko, every export scheduled" check --today 2026-12-04 \
		--format json -s "$TMP/du.schedule" "$TMP/du/dwarfunits.ko"
	for f in du_main du_alloc du_file du_timer du_list du_str; do
		expect_grep "fixture: its unit $f.c is read" "$TMP/own" "/du/$f.c\""
	done
}

dkms_part() {
	[ -n "$K" ] || { skip "DKMS: no kernel headers in /usr/src"; return; }
	[ -f "$TSV" ] || { skip "DKMS: no package list $TSV"; return; }
	awk '{ print $2 }' "$K/Module.symvers" | sort -u >"$TMP/exports"
	schedule_every "$TMP/exports" "$TMP/all.schedule"
	mkdir -p "$TMP/kos"
	grep -v '^#' "$TSV" >"$TMP/list"
	while IFS='	' read -r pkg prefix nko cmd; do
		[ -n "$pkg" ] || continue
		if ! dir=$(dkms_build "$pkg" "$prefix" "$cmd" "$K"); then
			skip "DKMS: $pkg: $dir"
			continue
		fi
		(cd "$dir" && find . -name '*.ko') | while read -r ko; do
			cp "$dir/$ko" "$TMP/kos/$pkg-$(basename "$ko")"
		done
	done <"$TMP/list"
	n=$(find "$TMP/kos" -name '*.ko' | wc -l)
	[ "$n" -gt 0 ] || { skip "DKMS: no package built"; return; }
	same "DKMS: check of $n modules, every export scheduled" \
		check --today 2026-12-04 --format json -s "$TMP/all.schedule" "$TMP/kos"
}

dbg_part() {
	F="$TOP/scripts/fetch-debian.sh"
	pkg=$("$F" bookworm list 'linux-image-6\.1\.0-[0-9]+-amd64-dbg' 2>"$TMP/fetch.log" |
		tail -n 1)
	if [ -z "$pkg" ] || ! root=$("$F" bookworm get "$pkg" 2>"$TMP/fetch.log"); then
		skip "Debian 6.1 -dbg: cannot fetch: $(tail -n 1 "$TMP/fetch.log")"
		return
	fi
	rel=${pkg#linux-image-}
	tree=$root/usr/lib/debug/lib/modules/${rel%-dbg}
	[ -d "$tree" ] || { fail "Debian 6.1 -dbg: no $tree in $pkg"; return; }
	n=$(find "$tree" -name '*.ko' | wc -l)
	# every export of Debian 12's headers: the -dbg package has no list
	[ -n "$K" ] || { skip "Debian 6.1 -dbg: no kernel headers in /usr/src"; return; }
	awk '{ print $2 }' "$K/Module.symvers" | sort -u >"$TMP/exports"
	schedule_every "$TMP/exports" "$TMP/dbg.schedule"
	# a use inside a kernel header's inline is the module's call of it,
	# though the tree Debian built in (DW_AT_comp_dir) is not here
	printf 'What: init_net\nWhen: 2030-01-01\n' >"$TMP/init_net.schedule"
	"$KSUNSET" check --today 2026-12-04 -s "$TMP/init_net.schedule" \
		"$tree/kernel/net/smc/smc.ko" >"$TMP/smc" 2>&1
	expect_eq "$pkg: smc.ko: init_net in net_generic() is at smc's two calls of it" \
		"$(grep -c 'include/net/netns/generic.h' "$TMP/smc"):$(grep -c \
			"smc_pnet.c:1174:7: warning: use of 'init_net' in 'smc_pnetid_by_table_ib'\\|smc_pnet.c:1203:7: warning: use of 'init_net' in 'smc_pnetid_by_table_smcd'" \
			"$TMP/smc")" "0:2"
	same "$pkg: users of four symbols over its $n modules" users --today 2026-12-04 \
		nonseekable_open noop_llseek simple_read_from_buffer debugfs_create_file -- "$tree"
	same "$pkg: check of its $n modules, every export scheduled" \
		check --today 2026-12-04 --format json -s "$TMP/dbg.schedule" "$tree"
}

fixture_part
dkms_part
dbg_part
