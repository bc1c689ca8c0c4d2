# put_section NAME FILE [RESULTS]: FILE, which starts with the line
# "<!-- NAME ..." and ends with "<!-- /NAME -->", replaces the section
# between those markers in RESULTS (default bench/results.md), or is added
# at its end. Sourced by bench/bench.sh, bench/dwarf.sh and bench/target.sh,
# which set $top.
put_section() {
	R=${3:-$top/bench/results.md}
	if grep -q "^<!-- $1" "$R"; then
		awk -v f="$2" -v first="<!-- $1" -v last="<!-- /$1" '
			index($0, first) == 1 { while ((getline l < f) > 0) print l; skip = 1; next }
			index($0, last) == 1 { skip = 0; next }
			!skip' "$R" >"$R.new" && mv "$R.new" "$R"
	else
		{ echo; cat "$2"; } >>"$R"
	fi
}
