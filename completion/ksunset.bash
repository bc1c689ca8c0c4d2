# bash completion for ksunset(1): subcommands, their options, schedules
# after -s, Module.symvers after -i, modules as operands. The subcommands and
# options are read from the program's own --help (once per shell), so they
# never go out of date with it. Installed as .../bash-completion/completions/ksunset.

# _ksunset_help PROG [CMD]: PROG's help (CMD's), cached per shell.
_ksunset_help()
{
	local key="_ksunset_cache_${2:-main}"
	key=${key//[^A-Za-z0-9_]/_}
	if [[ -z ${!key+set} ]]; then
		printf -v "$key" '%s' "$("$1" ${2:+"$2"} --help 2>/dev/null)"
	fi
	printf '%s\n' "${!key}"
}

# The long options of a help text; with "arg", only those that take a value.
_ksunset_options()
{
	local re='^ +(-[A-Za-z], )?(--[a-z][a-z-]*)( [A-Z])?'
	local line
	while IFS= read -r line; do
		[[ $line =~ $re ]] || continue
		[[ $2 == arg && -z ${BASH_REMATCH[3]} ]] && continue
		printf '%s\n' "${BASH_REMATCH[2]}"
		[[ $2 == arg && -n ${BASH_REMATCH[1]} ]] && printf '%s\n' "${BASH_REMATCH[1]%, }"
	done <<<"$1"
}

# _ksunset_files CUR PATTERN[|PATTERN...]: directories, and the files
# matching one of the patterns.
_ksunset_files()
{
	local f p pats
	IFS='|' read -ra pats <<<"$2"
	compopt -o filenames 2>/dev/null
	while IFS= read -r f; do
		for p in "${pats[@]}"; do
			# shellcheck disable=SC2053
			[[ $f == $p && ! -d $f ]] && { COMPREPLY+=("$f"); break; }
		done
	done < <(compgen -f -- "$1")
	while IFS= read -r f; do
		[[ " ${COMPREPLY[*]} " == *" $f "* ]] || COMPREPLY+=("$f")
	done < <(compgen -d -- "$1")
}

_ksunset_modules()
{
	_ksunset_files "$1" '*.ko|*.ko.xz|*.ko.zst|*.ko.gz|*.o|*modules.order'
}

# The value of option PREV.
_ksunset_value()
{
	local cur=$1 prev=$2
	case $prev in
	-s | --schedule) _ksunset_files "$cur" '*.schedule' ;;
	-i | --symvers) _ksunset_files "$cur" '*symvers*' ;;
	--kernel-dir | --source-root | -C) compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -d -- "$cur")) ;;
	--format) COMPREPLY=($(compgen -W 'text json sarif' -- "$cur")) ;;
	--action) COMPREPLY=($(compgen -W 'unexport gpl-only namespace' -- "$cur")) ;;
	--modules) _ksunset_modules "$cur" ;;
	-o | --output | --baseline | --write-baseline) _ksunset_files "$cur" '*' ;;
	esac
}

_ksunset()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local prog=${COMP_WORDS[0]} help cmd= i w dashdash= argopts
	COMPREPLY=()

	# the subcommand: the first word that is not an option or its value;
	# an operand there is a module of the default command, check
	help=$(_ksunset_help "$prog")
	local cmds=" $(sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p' <<<"$help" | tr '\n' ' ') "
	argopts=" $(_ksunset_options "$(_ksunset_help "$prog" check)" arg | tr '\n' ' ') "
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		case $w in
		--cflags | --plugin-path) cmd=$w ;;
		-*) [[ $argopts == *" $w "* ]] && ((i++)); continue ;;
		*) [[ $cmds == *" $w "* ]] && cmd=$w || cmd=check ;;
		esac
		break
	done
	if [[ -z $cmd && $argopts == *" $prev "* ]]; then
		_ksunset_value "$cur" "$prev"
		return 0
	fi
	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "$(_ksunset_options "$help") $(_ksunset_options \
				"$(_ksunset_help "$prog" check)")" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$cmds" -- "$cur"))
			_ksunset_modules "$cur"
		fi
		return 0
	fi
	[[ $cmd == --cflags ]] && cmd=check
	[[ $cmd == --plugin-path ]] && return 0
	for ((i = i + 1; i < COMP_CWORD; i++)); do
		[[ ${COMP_WORDS[i]} == -- ]] && dashdash=1
	done

	# make: check's options, then make's arguments
	help=$(_ksunset_help "$prog" "$([[ $cmd == make ]] && echo check || echo "$cmd")")
	argopts=" $(_ksunset_options "$help" arg | tr '\n' ' ') "
	if [[ $argopts == *" $prev "* && -z $dashdash ]]; then
		_ksunset_value "$cur" "$prev"
		return 0
	fi
	if [[ $cur == -* && -z $dashdash ]]; then
		COMPREPLY=($(compgen -W "$(_ksunset_options "$help") $([[ $cmd == make ]] &&
			echo --report-only)" -- "$cur"))
		return 0
	fi
	case $cmd in
	check | unused) _ksunset_modules "$cur" ;;
	users) [[ -n $dashdash ]] && _ksunset_modules "$cur" ;;
	lint) ;;
	make)
		if [[ $prev == -C ]]; then
			_ksunset_value "$cur" -C
		elif [[ $cur == M=* ]]; then
			compopt -o filenames 2>/dev/null
			COMPREPLY=($(compgen -d -P M= -- "${cur#M=}"))
		else
			COMPREPLY=($(compgen -W 'modules clean modules_install -C M=' -- "$cur"))
		fi
		;;
	*) _ksunset_files "$cur" '*' ;;
	esac
	return 0
} &&
	complete -F _ksunset ksunset
