#!/bin/sh
# Bash completion, installed by make install where bash-completion looks,
# loaded on demand by bash-completion in an interactive bash (bash -i) and
# driven as readline drives it: COMP_WORDS/COMP_CWORD, then the function
# that "complete -p ksunset" names.
. "$(dirname "$0")/lib.sh"
BC=/usr/share/bash-completion/bash_completion
if [ ! -f "$BC" ]; then skip "no bash-completion (scripts/install-deps.sh installs it)"; exit 0; fi
R="$TMP/root"
make -s -C "$TOP" install DESTDIR="$R" PREFIX=/usr/local >"$TMP/log" 2>&1
expect_eq "make install: exit 0" "$?" 0
DIR=$(pkg-config --define-variable=datadir=/usr/local/share --variable=completionsdir bash-completion)
test -f "$R$DIR/ksunset" && pass "installed in bash-completion's directory ($DIR)" ||
	fail "installed in bash-completion's directory ($DIR)"

# a folder to complete in (folders complete without their "/": readline
# adds it, as for any file name completion)
W="$TMP/work"
mkdir -p "$W/mods/sub" "$W/kernel"
: >"$W/vendor.schedule"
: >"$W/notes.txt"
: >"$W/kernel/Module.symvers"
: >"$W/mods/a.ko"
: >"$W/mods/b.ko.xz"
: >"$W/mods/modules.order"
: >"$W/mods/readme.txt"

cat >"$TMP/drive.sh" <<'EOF'
. /usr/share/bash-completion/bash_completion
echo "before: $(complete -p ksunset 2>/dev/null || echo none)"
__load_completion ksunset
echo "loaded: $(complete -p ksunset 2>/dev/null)"
fn=$(complete -p ksunset | sed -n 's/.*-F \([^ ]*\) .*/\1/p')
# c WORD...: the completions of the last word, sorted, on one line
c() {
	COMP_WORDS=("$@") COMP_CWORD=$(($# - 1)) COMP_LINE="$*" COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	"$fn" ksunset "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//'
	echo
}
cd "$WORK"
echo "subcommands: $(c ksunset '')"
echo "l: $(c ksunset l)"
echo "check --f: $(c ksunset check --f)"
echo "format: $(c ksunset check --format '')"
echo "schedule: $(c ksunset check -s '')"
echo "symvers: $(c ksunset check -i kernel/)"
echo "modules: $(c ksunset check mods/)"
echo "default check: $(c ksunset -s vendor.schedule mods/)"
echo "lint --s: $(c ksunset lint --s)"
echo "make: $(c ksunset make --rep)"
echo "make M=: $(c ksunset make -s vendor.schedule M=mo)"
echo "users after --: $(c ksunset users foo -- mods/)"
echo "mark --action: $(c ksunset mark --action '')"
EOF
XDG_DATA_DIRS="$R/usr/local/share:/usr/share" PATH="$R/usr/local/bin:$PATH" WORK="$W" \
	bash --norc --noprofile -i -c ". '$TMP/drive.sh'" >"$TMP/out" 2>"$TMP/err"
expect_eq "bash -i: exit 0" "$?" 0
# want LABEL COMPLETIONS
want() {
	expect_eq "$1" "$(sed -n "s|^$1: ||p" "$TMP/out")" "$2"
}
want before none
want loaded "complete -F _ksunset ksunset"
want subcommands "check diff fix kernel lint make mark mods unused users"
want l lint
want "check --f" --format
want format "json sarif text"
want schedule "kernel mods vendor.schedule"
want symvers "kernel/Module.symvers"
want modules "mods/a.ko mods/b.ko.xz mods/modules.order mods/sub"
want "default check" "mods/a.ko mods/b.ko.xz mods/modules.order mods/sub"
want "lint --s" "--schedule --symvers"
want make --report-only
want "make M=" "M=mods"
want "users after --" "mods/a.ko mods/b.ko.xz mods/modules.order mods/sub"
want "mark --action" "gpl-only namespace unexport"
[ -s "$TMP/err" ] && grep -v '^bash: \|^\$ \|^exit$\|^[^ ]*# ' "$TMP/err" | sed 's/^/  stderr | /'
exit 0
