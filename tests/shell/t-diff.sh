#!/bin/sh
# ksunset diff: two kernels' exports compared. On made-up Module.symvers
# every kind of change and every bad input; on Debian 12's 6.1.0-47 and
# 6.1.0-57 headers (fetched by scripts/fetch-debian.sh, skipped when the
# archive cannot be reached) exactly what join(1) says was removed, added
# or changed, and --schedule-out entries that the release-keyed checks apply.
. "$(dirname "$0")/lib.sh"
LC_ALL=C
export LC_ALL
tab=$(printf '\t')

# --- made-up kernels: every kind of change --------------------------------
mkdir -p "$TMP/old/include/generated" "$TMP/new/include/generated"
cat >"$TMP/old/Module.symvers" <<EOT
0x00000001	gone	vmlinux	EXPORT_SYMBOL	
0x00000002	to_gpl	vmlinux	EXPORT_SYMBOL	
0x00000003	from_gpl	vmlinux	EXPORT_SYMBOL_GPL	
0x00000004	into_ns	vmlinux	EXPORT_SYMBOL_GPL	
0x00000005	into_kvm	vmlinux	EXPORT_SYMBOL_GPL	
0x00000006	moved	drivers/foo/foo	EXPORT_SYMBOL	
0x00000007	same	vmlinux	EXPORT_SYMBOL	
0x00000008	gpl_and_ns	vmlinux	EXPORT_SYMBOL	
0x00000009	out_of_ns	vmlinux	EXPORT_SYMBOL	CXL
EOT
cat >"$TMP/new/Module.symvers" <<EOT
0x00000000	to_gpl	vmlinux	EXPORT_SYMBOL_GPL	
0x00000000	from_gpl	vmlinux	EXPORT_SYMBOL	
0x00000000	into_ns	vmlinux	EXPORT_SYMBOL_GPL	DMA_BUF
0x00000000	into_kvm	vmlinux	EXPORT_SYMBOL_GPL	module:kvm,kvm-*
0x00000000	moved	vmlinux	EXPORT_SYMBOL	
0x00000000	same	vmlinux	EXPORT_SYMBOL	
0x00000000	gpl_and_ns	vmlinux	EXPORT_SYMBOL_GPL	FOO
0x00000000	out_of_ns	vmlinux	EXPORT_SYMBOL	
0x00000000	fresh	vmlinux	EXPORT_SYMBOL_GPL	module:kvm
EOT
echo '#define UTS_RELEASE "6.18.0-1-amd64"' >"$TMP/old/include/generated/utsrelease.h"
echo '#define UTS_RELEASE "7.2.3+deb13-amd64"' >"$TMP/new/include/generated/utsrelease.h"

"$KSUNSET" diff "$TMP/old" "$TMP/new" >"$TMP/out" 2>"$TMP/err"
expect_eq "made-up: exit 0" "$?" 0
cat >"$TMP/want" <<'EOT'
added: "fresh" [vmlinux] EXPORT_SYMBOL_GPL module:kvm
no-longer-gpl-only: "from_gpl" [vmlinux] EXPORT_SYMBOL_GPL -> EXPORT_SYMBOL
removed: "gone" [vmlinux] EXPORT_SYMBOL
gpl-only: "gpl_and_ns" [vmlinux] EXPORT_SYMBOL -> EXPORT_SYMBOL_GPL
namespace: "gpl_and_ns" [vmlinux] - -> FOO
namespace: "into_kvm" [vmlinux] - -> module:kvm,kvm-* (a removal for other modules)
namespace: "into_ns" [vmlinux] - -> DMA_BUF
owner: "moved" drivers/foo/foo -> vmlinux
namespace: "out_of_ns" [vmlinux] CXL -> -
gpl-only: "to_gpl" [vmlinux] EXPORT_SYMBOL -> EXPORT_SYMBOL_GPL
EOT
expect_file_eq "made-up: every kind of change, one line each" "$TMP/out" "$TMP/want"
expect_grep "made-up: summary with both releases" "$TMP/err" \
	"ksunset: 6.18.0-1-amd64 (9 exports) -> 7.2.3+deb13-amd64 (9 exports): 1 removed, 1 added, 2 gpl-only, 1 no-longer-gpl-only, 4 namespace, 1 owner"

"$KSUNSET" diff --format json "$TMP/old/Module.symvers" "$TMP/new/Module.symvers" >"$TMP/json" 2>/dev/null
expect_eq "made-up json: exit 0" "$?" 0
python3 - "$TMP/json" >"$TMP/jsum" <<'EOT'
import json, sys
d = json.load(open(sys.argv[1]))
for c in d["changes"]:
    print(c["symbol"], c["change"], c["old_owner"], c["old_type"], c["old_namespace"],
          c["new_owner"], c["new_type"], c["new_namespace"], c["removal_for_other_modules"])
print(d["old"]["release"], d["new"]["release"], d["summary"]["namespace"])
EOT
expect_grep "json: a move into a module: list is a removal" "$TMP/jsum" \
	"into_kvm namespace vmlinux EXPORT_SYMBOL_GPL None vmlinux EXPORT_SYMBOL_GPL module:kvm,kvm-* True"
expect_grep "json: removed has no new side" "$TMP/jsum" "gone removed vmlinux EXPORT_SYMBOL None None None None True"
expect_grep "json: a Module.symvers has no release" "$TMP/jsum" "None None 4"
expect_eq "json: one object per text line" "$(grep -c ' ' "$TMP/jsum")" 11

# --schedule-out: one entry per action, keyed by the new release
"$KSUNSET" diff "$TMP/old" "$TMP/new" --schedule-out "$TMP/s.schedule" >/dev/null 2>"$TMP/err"
expect_eq "schedule-out: exit 0" "$?" 0
grep -E '^(What|When|Action)' "$TMP/s.schedule" >"$TMP/got"
cat >"$TMP/want" <<'EOT'
What:    gone
When:    7.2
Action:  unexport
What:    gpl_and_ns
When:    7.2
Action:  namespace FOO
What:    into_kvm
When:    7.2
Action:  unexport
What:    into_ns
When:    7.2
Action:  namespace DMA_BUF
What:    to_gpl
When:    7.2
Action:  gpl-only
EOT
expect_file_eq "schedule-out: removed and module: moves unexport, GPL-only and a namespace is the namespace, nothing for added, no-longer-gpl-only, owner, out of a namespace" "$TMP/got" "$TMP/want"
expect_grep "schedule-out: says why" "$TMP/s.schedule" \
	"Why:     Exported only to module:kvm,kvm-* from 7.2.3+deb13-amd64 on (not in 6.18.0-1-amd64): for any other module a removal."
"$KSUNSET" lint -s "$TMP/s.schedule" >"$TMP/lint" 2>&1
expect_eq "schedule-out: the entries pass lint" "$?" 0
expect_eq "schedule-out: When is the new release" "$(grep -c '^When:    7\.2$' "$TMP/s.schedule")" 5

# --- bad input: one error naming the file (and line), exit 2 ---------------
bad() { # WHAT WANT-STDERR-LINE ARGS...
	what=$1 want=$2
	shift 2
	"$KSUNSET" diff "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	expect_eq "bad input: $what: exit 2" "$rc" 2
	expect_eq "bad input: $what: one line" "$(wc -l <"$TMP/err")" 1
	expect_grep "bad input: $what: says why" "$TMP/err" "$want"
	expect_eq "bad input: $what: no output" "$(wc -c <"$TMP/out")" 0
}
{ head -2 "$TMP/old/Module.symvers"; printf '0xzz\tbroken\tvmlinux\tEXPORT_SYMBOL\t\n'
  tail -n +3 "$TMP/old/Module.symvers"; printf 'junk\n'; } >"$TMP/bad.symvers"
bad "a malformed row" "$TMP/bad.symvers:3: error: bad CRC: '0xzz' (and 1 more malformed line)" \
	"$TMP/bad.symvers" "$TMP/new"
bad "a missing file" "$TMP/nothing: error: cannot read: No such file or directory" \
	"$TMP/old" "$TMP/nothing"
mkdir "$TMP/empty-dir"
bad "a directory without Module.symvers" \
	"$TMP/empty-dir: error: a directory without a Module.symvers" "$TMP/empty-dir" "$TMP/new"
bad "a device" "/dev/null: error: neither a Module.symvers nor a directory holding one" \
	/dev/null "$TMP/new"
bad "an ELF file" "$KSUNSET:1: error: not a Module.symvers: " "$KSUNSET" "$TMP/new"
: >"$TMP/empty.symvers"
bad "an empty file" "$TMP/empty.symvers: error: no exports: not a Module.symvers" \
	"$TMP/old" "$TMP/empty.symvers"
bad "releases a schedule cannot tell apart" \
	"error: release '6.18.0-1-amd64' (old: '6.18.0-1-amd64'): a schedule's When cannot tell it from the old release; give --new-release" \
	"$TMP/old" "$TMP/old" --schedule-out "$TMP/never.schedule"
expect_eq "bad input: no schedule written" "$(ls "$TMP/never.schedule" 2>/dev/null)" ""
bad "schedule-out without a new release" \
	"$TMP/new/Module.symvers: error: --schedule-out needs the new kernel's release: none found here; give --new-release" \
	"$TMP/old" "$TMP/new/Module.symvers" --schedule-out "$TMP/never.schedule"
"$KSUNSET" diff "$TMP/old" >/dev/null 2>"$TMP/err"
expect_eq "usage: one kernel is not enough (exit 2)" "$?" 2
expect_grep "usage: says so" "$TMP/err" "no NEW given"

# --- Debian 12's 6.1.0-47 and 6.1.0-57 ----------------------------------------
F="$TOP/scripts/fetch-debian.sh"
symvers_of() { # RELEASE: the Module.symvers of Debian's linux-headers-RELEASE
	p=linux-headers-$1
	if [ -f "/usr/src/$p/Module.symvers" ]; then echo "/usr/src/$p"; return 0; fi
	root=$("$F" bookworm get "$p" 2>"$TMP/fetch.log") || return $?
	echo "$root/usr/src/$p"
}
O=$(symvers_of 6.1.0-47-amd64) && N=$(symvers_of 6.1.0-57-amd64)
rc=$?
if [ "$rc" -ne 0 ]; then
	skip "cannot fetch Debian 12's 6.1.0-47/-57 headers (status $rc): $(tail -1 "$TMP/fetch.log")"
	exit 0
fi
"$KSUNSET" diff "$O" "$N" >"$TMP/got" 2>"$TMP/err"
expect_eq "6.1.0-47 -> 6.1.0-57: exit 0" "$?" 0

# The reference: join(1) on the symbol of each file's first export of it.
first() { awk -F'\t' '!seen[$2]++ { print $2 "\t" $3 "\t" $4 "\t" $5 }' "$1/Module.symvers" | sort -t "$tab" -k1,1; }
first "$O" >"$TMP/o"
first "$N" >"$TMP/n"
{
	join -t "$tab" -v1 "$TMP/o" "$TMP/n" | awk -F'\t' '{ printf "removed: \"%s\" [%s] %s%s%s\n", $1, $2, $3, $4 == "" ? "" : " ", $4 }'
	join -t "$tab" -v2 "$TMP/o" "$TMP/n" | awk -F'\t' '{ printf "added: \"%s\" [%s] %s%s%s\n", $1, $2, $3, $4 == "" ? "" : " ", $4 }'
	join -t "$tab" "$TMP/o" "$TMP/n" | awk -F'\t' '
		$3 != $6 { printf "%s: \"%s\" [%s] %s -> %s\n", $6 == "EXPORT_SYMBOL_GPL" ? "gpl-only" : "no-longer-gpl-only", $1, $5, $3, $6 }
		$4 != $7 { printf "namespace: \"%s\" [%s] %s -> %s%s\n", $1, $5, $4 == "" ? "-" : $4, $7 == "" ? "-" : $7,
			   $7 ~ /^module:/ && $4 !~ /^module:/ ? " (a removal for other modules)" : "" }
		$2 != $5 { printf "owner: \"%s\" %s -> %s\n", $1, $2, $5 }'
} | sort -s -t '"' -k2,2 >"$TMP/want"
expect_file_eq "6.1.0-47 -> 6.1.0-57: exactly what join says was removed, added or changed" "$TMP/got" "$TMP/want"
nrem=$(grep -c '^removed:' "$TMP/want") nadd=$(grep -c '^added:' "$TMP/want")
expect_grep "6.1.0-47 -> 6.1.0-57: summary ($nrem removed, $nadd added)" "$TMP/err" \
	"6.1.0-47-amd64 (24618 exports) -> 6.1.0-57-amd64 (24683 exports): $nrem removed, $nadd added,"
expect_eq "6.1.0-47 -> 6.1.0-57: Debian removed 19 exports and added 84" "$nrem $nadd" "19 84"

"$KSUNSET" diff --format json "$O" "$N" >"$TMP/json" 2>/dev/null
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d["changes"]), d["summary"]["removed"], d["new"]["release"])' \
	"$TMP/json" >"$TMP/jsum"
expect_eq "6.1.0-47 -> 6.1.0-57 json: the same changes" "$(cat "$TMP/jsum")" "$(wc -l <"$TMP/want") $nrem 6.1.0-57-amd64"

# Both are "6.1.0" to a schedule: --schedule-out needs --new-release.
"$KSUNSET" diff "$O" "$N" --schedule-out "$TMP/61.schedule" >/dev/null 2>"$TMP/err"
expect_eq "6.1.0-47 -> 6.1.0-57: releases a schedule cannot tell apart: exit 2" "$?" 2
"$KSUNSET" diff "$O" "$N" --schedule-out "$TMP/61.schedule" --new-release 6.1.192 >/dev/null 2>&1
expect_eq "--new-release 6.1.192: exit 0" "$?" 0
"$KSUNSET" lint -s "$TMP/61.schedule" -i "$O/Module.symvers" --kernel-release 6.1.192 >"$TMP/lint" 2>&1
expect_eq "the entries apply by release: on 6.1.192 all $nrem are due, yet still in 6.1.0-47" \
	"$(grep -c "was due for removal in Linux 6.1.192 but is still exported" "$TMP/lint")" "$nrem"
"$KSUNSET" lint -s "$TMP/61.schedule" -i "$O/Module.symvers" --kernel-release 6.1.170 >"$TMP/lint" 2>&1
expect_eq "... and none is due on 6.1.170" "$?" 0
exit 0
