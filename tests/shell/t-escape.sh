#!/bin/sh
# Output no input can break: bytes that a terminal acts on (ESC sequences
# that retitle or clear it, BEL, a C1 CSI) or that are not UTF-8, read
# from a Module.symvers (namespace and module columns), a schedule (Why,
# Replace) and a module's .note.ksunset records (file and function
# names), through every subcommand and format: no such byte reaches the
# output as it is (text writes \xHH), everything decodes as strict UTF-8,
# and JSON and SARIF parse. And a pipe whose reader goes ends it by
# SIGPIPE, as it ends git and grep.
. "$(dirname "$0")/lib.sh"

bad=$(printf '\033]0;PWNED\007\033[2J\302\233\377\303')
printf '0x1\tdo_settimeofday64\t%s\tEXPORT_SYMBOL\t%s\n0x2\tsimple_strtoul\tvmlinux\tEXPORT_SYMBOL_GPL\t\n' \
	"$bad" "$bad" >"$TMP/hostile.symvers"
printf '0x1\tdo_settimeofday64\tvmlinux\tEXPORT_SYMBOL\t\n' >"$TMP/plain.symvers"
cat >"$TMP/hostile.schedule" <<EOT
What:    do_settimeofday64
When:    2027-09-01
Replace: no replacement $bad
Why:     Why $bad
Who:     A. Maintainer <m@example.org>
EOT
cat >"$TMP/records.S" <<'EOT'
	.text
	.globl	f
f:
	call	do_settimeofday64
	call	simple_strtoul
	ret
	.section .modinfo,"a"
	.asciz	"license=Proprietary"
	.asciz	"name=hostile"
	.section .note.ksunset,"",@note
	.balign	4
	.long	8
	.long	2f - 1f
	.long	0x4b53
	.asciz	"ksunset"
1:	.asciz	"ksunset 1\tunit\thostile\033[2J.c\t0123456789abcdef\t12.2.0"
	.asciz	"ksunset 1\tuse\tdo_settimeofday64\tcall\tdrv/\033]0;PWNED\007\377.c\t10\t9\tf\302\233x\t2027-09-01"
2:	.balign	4
EOT
cc -c "$TMP/records.S" -o "$TMP/hostile.o" || { fail "assemble the hostile records"; exit 1; }

# every output: no ESC, BEL, C1 CSI or non-UTF-8 byte, strict UTF-8
clean() {
	python3 - "$1" <<'EOT'
import sys
d = open(sys.argv[1], "rb").read()
d.decode("utf-8")	# strict: raises on anything that is not UTF-8
bad = [b for b in (0x1b, 0x07, 0x9b) if b in d]
assert not bad and "\u009b" not in d.decode("utf-8"), bad
print("clean")
EOT
}

run() {	# WHAT FORMAT ARGS...: runs ksunset ARGS, checks its output
	what=$1 fmt=$2
	shift 2
	"$KSUNSET" "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	cat "$TMP/out" "$TMP/err" >"$TMP/all"
	expect_eq "$what: no exit by a crash (status $rc)" "$([ "$rc" -le 2 ] && echo ok)" ok
	expect_eq "$what: stdout and stderr safe for a terminal, strict UTF-8" "$(clean "$TMP/all" 2>&1 | tail -n 1)" clean
	if [ "$fmt" = json ] || [ "$fmt" = sarif ]; then
		python3 -c 'import json,sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$TMP/out" 2>/dev/null
		expect_eq "$what: the $fmt document parses" "$?" 0
	fi
}

for fmt in text json sarif; do
	run "check $fmt" "$fmt" check --format "$fmt" -s "$TMP/hostile.schedule" -i "$TMP/hostile.symvers" \
		--today 2026-12-06 "$TMP/hostile.o"
	[ "$fmt" = text ] && cp "$TMP/all" "$TMP/check-text"
	run "check --target $fmt" "$fmt" check --format "$fmt" --target "$TMP/hostile.symvers" \
		--target-release 6.12 "$TMP/hostile.o"
done
for fmt in text json; do
	run "users $fmt" "$fmt" users --format "$fmt" do_settimeofday64 -- "$TMP/hostile.o"
	run "unused $fmt" "$fmt" unused --format "$fmt" -i "$TMP/hostile.symvers" "$TMP/hostile.o"
	run "diff $fmt" "$fmt" diff --format "$fmt" "$TMP/hostile.symvers" "$TMP/plain.symvers"
done
run "lint" text lint -s "$TMP/hostile.schedule" -i "$TMP/hostile.symvers"
expect_grep "text: the bytes written as \\xHH" "$TMP/check-text" '\x1b]0;PWNED\x07'
# a malformed schedule line holding them: its error quotes the line safely
printf 'What: \033[2Jfoo\nWhen: soon\377\n' >"$TMP/broken.schedule"
run "lint of a malformed schedule" text lint -s "$TMP/broken.schedule"

# a reader that goes: SIGPIPE ends ksunset, as it ends git and grep
K=$(kdir)
if [ -n "$K" ]; then
	{ "$KSUNSET" diff "$TMP/plain.symvers" "$K/Module.symvers" 2>/dev/null; echo $? >"$TMP/rc"; } |
		head -n 1 >/dev/null
	expect_eq "a closed pipe: ended by SIGPIPE (141), as git and grep are" "$(cat "$TMP/rc")" 141
fi
exit 0
