#!/bin/sh
# With SANITIZE=1: LeakSanitizer works on this machine (it needs ptrace-like
# access that some containers deny) and a leak fails a program built with
# the suite's flags, so leaks in ksunset cannot pass unnoticed (run.sh
# fails the suite on any report).
. "$(dirname "$0")/lib.sh"
if ! ldd "$KSUNSET" 2>/dev/null | grep -q libasan; then
	skip "not a sanitized build (make check SANITIZE=1)"
	exit 0
fi
cat >"$TMP/leak.c" <<'EOC'
#include <stdlib.h>
#include <string.h>
int main(void)
{
	char *p = malloc(64);

	strcpy(p, "never freed");
	p = NULL;
	return 0;
}
EOC
cc -g -O0 -fsanitize=address,undefined -fno-sanitize-recover=all -o "$TMP/leak" "$TMP/leak.c" ||
	{ fail "build a leaking program with ASan"; exit 0; }
ASAN_OPTIONS=detect_leaks=1 "$TMP/leak" 2>"$TMP/err"
rc=$?
expect_eq "a leak makes a sanitized program fail" "$([ $rc -ne 0 ] && echo failed)" failed
expect_grep "LeakSanitizer reports the leak" "$TMP/err" "ERROR: LeakSanitizer: detected memory leaks"
expect_grep "the report names the allocation" "$TMP/err" "leak.c:5"
exit 0
