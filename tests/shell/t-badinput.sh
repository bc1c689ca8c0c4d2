#!/bin/sh
# Bad inputs to ksunset check: each is named in one message, the others
# are still checked, and the exit status is 2.
. "$(dirname "$0")/lib.sh"
S="$TOP/tests/data/check.schedule"
cc -c "$TOP/tests/data/elf/records.S" -o "$TMP/good.o" || { fail "assemble records.S"; exit 0; }
cc -c -DKS_BAD_RECORD "$TOP/tests/data/elf/records.S" -o "$TMP/badrec.o" || { fail "assemble a bad record"; exit 0; }
chk() { "$KSUNSET" check -s "$S" --today 2026-12-03 "$@"; }

# expect_bad WHAT FILE MESSAGE: FILE is reported, good.o still checked, exit 2
expect_bad() {
	chk "$2" "$TMP/good.o" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	expect_eq "$1: exit 2" "$rc" 2
	expect_grep "$1: message" "$TMP/err" "$3"
	expect_grep "$1: other module still checked" "$TMP/out" "[$TMP/good.o]"
	expect_eq "$1: no crash" "$(grep -c 'Sanitizer\|Segmentation' "$TMP/err")" 0
}

chk "$TMP/good.o" >"$TMP/out" 2>&1
expect_eq "good object: exit 0" "$?" 0
expect_grep "good object: record locations" "$TMP/out" "drv/records.c:20:16: warning: address of 'do_settimeofday64' (removal on 2027-09-01) [ksunset-scheduled]"
expect_eq "records of symbols not imported are ignored" "$(grep -c not_imported "$TMP/out")" 0

: >"$TMP/empty.ko"
expect_bad "empty file" "$TMP/empty.ko" "$TMP/empty.ko: error: file too short to be an ELF object"
echo "just text, not an object file" >"$TMP/text.ko"
expect_bad "text file" "$TMP/text.ko" "$TMP/text.ko: error: not an ELF object"
size=$(wc -c <"$TMP/good.o")
for n in 16 63 64 200 600 $((size / 2)) $((size - 300)) $((size - 1)); do
	head -c "$n" "$TMP/good.o" >"$TMP/trunc.o"
	expect_bad "object truncated to $n bytes" "$TMP/trunc.o" "$TMP/trunc.o: error:"
done
expect_bad "missing file" "$TMP/nope.ko" "$TMP/nope.ko: error: No such file or directory"
# a gate that checked nothing must not pass: a folder or a list without
# modules is named, exit 2, unless check --allow-empty
mkdir -p "$TMP/nomods/sub" && echo text >"$TMP/nomods/sub/readme"
expect_bad "empty folder" "$TMP/nomods" "$TMP/nomods: error: no module found"
printf '\n\n' >"$TMP/nomods/modules.order"
expect_bad "modules.order listing nothing" "$TMP/nomods/modules.order" \
	"$TMP/nomods/modules.order: error: no module found"
chk "$TMP/nomods" >"$TMP/out" 2>"$TMP/err"
expect_eq "empty folder alone: exit 2" "$?" 2
expect_grep "empty folder alone: summary" "$TMP/err" "0 modules checked: 0 errors, 0 warnings; 1 unusable input"
chk --allow-empty "$TMP/nomods" "$TMP/nomods/modules.order" >"$TMP/out" 2>"$TMP/err"
expect_eq "--allow-empty: exit 0" "$?" 0
expect_eq "--allow-empty: no error" "$(grep -c "error:" "$TMP/err")" 0
chk --allow-empty "$TMP/typo" >"$TMP/out" 2>"$TMP/err"
expect_eq "--allow-empty: a missing path is still exit 2" "$?" 2
expect_grep "--allow-empty: a missing path is still named" "$TMP/err" "$TMP/typo: error: No such file or directory"
"$KSUNSET" users do_settimeofday64 -- "$TMP/nomods" >"$TMP/out" 2>"$TMP/err"
expect_eq "users on an empty folder: exit 2" "$?" 2
expect_grep "users on an empty folder: named" "$TMP/err" "$TMP/nomods: error: no module found"
printf '0x1\tgood_sym\tvmlinux\tEXPORT_SYMBOL\t\n' >"$TMP/one.symvers"
"$KSUNSET" unused -i "$TMP/one.symvers" "$TMP/nomods" >"$TMP/out" 2>"$TMP/err"
expect_eq "unused on an empty folder: exit 2" "$?" 2
expect_grep "unused on an empty folder: named" "$TMP/err" "$TMP/nomods: error: no module found"
# paths as given: a folder with a trailing slash gives no doubled one
mkdir -p "$TMP/mods" && cp "$TMP/good.o" "$TMP/mods/good.ko"
chk "$TMP/mods/" >"$TMP/out" 2>&1
expect_grep "folder/: module path as given" "$TMP/out" "[$TMP/mods/good.ko]"
expect_eq "folder/: no doubled slash" "$(grep -c '//' "$TMP/out")" 0

mkdir -p "$TMP/dir.ko"
chmod 000 "$TMP/dir.ko"
cp "$TMP/good.o" "$TMP/noread.ko" && chmod 000 "$TMP/noread.ko"
if [ "$(id -u)" -ne 0 ]; then
	expect_bad "unreadable file" "$TMP/noread.ko" "$TMP/noread.ko: error: Permission denied"
fi
expect_bad "malformed record" "$TMP/badrec.o" \
	"$TMP/badrec.o: error: malformed .note.ksunset record 3: bad kind (expected call, addr or data)"
printf 'xz-looking\375' >"$TMP/x.ko.xz"
printf '\3757zXZ\0garbage' >"$TMP/bad.ko.xz"
expect_bad "corrupt xz" "$TMP/bad.ko.xz" "$TMP/bad.ko.xz: error: corrupt or truncated xz data"
gzip -c "$TMP/good.o" | head -c 100 >"$TMP/bad.ko.gz"
expect_bad "truncated gzip" "$TMP/bad.ko.gz" "$TMP/bad.ko.gz: error: corrupt or truncated gzip data"
mkfifo "$TMP/fifo.ko"
expect_bad "a FIFO does not hang the run" "$TMP/fifo.ko" "$TMP/fifo.ko: error: not a regular file"
expect_bad "a device" /dev/zero "/dev/zero: error: not a regular file"
cp /bin/true "$TMP/exec.ko"
expect_bad "executable, not ET_REL" "$TMP/exec.ko" "not a relocatable object"

printf '0x1234\tgood_sym\tvmlinux\tEXPORT_SYMBOL\t\nbroken line\n0xzz\tx\tvmlinux\tEXPORT_SYMBOL\t\n' >"$TMP/bad.symvers"
chk -i "$TMP/bad.symvers" "$TMP/good.o" >"$TMP/out" 2>"$TMP/err"
expect_eq "malformed Module.symvers: exit 2" "$?" 2
expect_grep "malformed Module.symvers: line 2 named" "$TMP/err" "$TMP/bad.symvers:2: error: expected CRC, symbol, module, export type and namespace separated by tabs: 'broken line'"
expect_grep "malformed Module.symvers: line 3 named" "$TMP/err" "$TMP/bad.symvers:3: error: bad CRC: '0xzz'"

chk -s "$TOP/tests/data/schedules/errors.schedule" "$TMP/good.o" >"$TMP/out" 2>"$TMP/err"
expect_eq "malformed schedule: exit 2" "$?" 2
expect_grep "malformed schedule: FILE:LINE" "$TMP/err" "errors.schedule:7: error: bad symbol name 'foo-bar'"

chk --frob "$TMP/good.o" >"$TMP/out" 2>"$TMP/err"
expect_eq "unknown option: exit 2" "$?" 2
expect_grep "unknown option: named" "$TMP/err" "ksunset check: error: unknown option '--frob'"
chk --format xml "$TMP/good.o" >"$TMP/out" 2>"$TMP/err"
expect_eq "bad --format: exit 2" "$?" 2
chk --error-within soon "$TMP/good.o" >"$TMP/out" 2>"$TMP/err"
expect_eq "bad --error-within: exit 2" "$?" 2
chk >"$TMP/out" 2>"$TMP/err"
expect_eq "no module: exit 2" "$?" 2
"$KSUNSET" check "$TMP/good.o" >"$TMP/out" 2>"$TMP/err" </dev/null
rc=$?
if [ -z "${KSUNSET_SCHEDULE:-}" ] && ! ls /etc/ksunset/schedule.d/*.schedule >/dev/null 2>&1; then
	expect_eq "no schedule at all: exit 2" "$rc" 2
	expect_grep "no schedule at all: where it looked" "$TMP/err" \
		'ksunset: error: no schedule found (looked for $KSUNSET_SCHEDULE, /etc/ksunset/schedule.d/*.schedule and '
	expect_grep "no schedule at all: said" "$TMP/err" "): nothing checked; give -s FILE or set KSUNSET_SCHEDULE"
	"$KSUNSET" check --kernel-dir "$TMP/kdir" "$TMP/good.o" >"$TMP/out" 2>"$TMP/err" </dev/null
	expect_eq "no schedule, --kernel-dir: exit 2" "$?" 2
	expect_grep "no schedule, --kernel-dir: looked there" "$TMP/err" \
		"ksunset: error: no schedule found (looked for \$KSUNSET_SCHEDULE, $TMP/kdir/ksunset.schedule, /etc/ksunset/"
fi
chmod 755 "$TMP/dir.ko"
exit 0
