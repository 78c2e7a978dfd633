# bash completion of drivebench, oltp and sysbench (oltp's other name),
# installed by make install as $(BASHCOMPDIR)/drivebench with oltp and
# sysbench links to it. The commands and options come from the programs
# themselves (`drivebench --list-options`, `oltp --list-options`, oltp's
# workloads from its --help), the run ids from `drivebench list` (with
# the --uri and --results the line gives) or the results folder's run
# folders; plans are *.ini files.

# The line as words with "--NAME" "=" "VALUE" joined (bash splits at "=")
# into _db_words, the cursor's word index into _db_cword, and into
# _db_pre what a reply to an option's value starts with: "" when bash split
# the word at "=", else "--NAME=".
_db_words()
{
    local i w
    _db_words=() _db_pre=
    for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do
        w=${COMP_WORDS[i]}
        if [[ $w == = && ${#_db_words[@]} -gt 0 && ${_db_words[-1]} == --* && ${_db_words[-1]} != *=* ]]; then
            _db_words[-1]+="="
            ((i == COMP_CWORD)) && _db_cword=$((${#_db_words[@]} - 1))
            if ((i + 1 < ${#COMP_WORDS[@]})); then
                ((i + 1 == COMP_CWORD)) && _db_cword=$((${#_db_words[@]} - 1))
                _db_words[-1]+=${COMP_WORDS[i + 1]}
                i=$((i + 1))
            fi
            continue
        fi
        _db_words+=("$w")
        ((i == COMP_CWORD)) && _db_cword=$((${#_db_words[@]} - 1))
    done
    ((COMP_CWORD >= ${#COMP_WORDS[@]})) && { _db_words+=(""); _db_cword=$((${#_db_words[@]} - 1)); }
    [[ ${COMP_WORDS[COMP_CWORD]} == *=* && ${COMP_WORDS[COMP_CWORD]} != = ]] && _db_pre=${_db_words[_db_cword]%%=*}=
    return 0
}

# COMPREPLY: the words of $1 (a list) that start with $2, each after $_db_pre.
_db_reply()
{
    local w
    COMPREPLY=()
    for w in $1; do
        [[ $w == "$2"* ]] && COMPREPLY+=("$_db_pre$w")
    done
}

# COMPREPLY: files matching the glob $2 (none: any) and folders starting with $1.
_db_files()
{
    local f
    COMPREPLY=()
    while IFS= read -r f; do
        COMPREPLY+=("$_db_pre$f")
    done < <(if [[ -n $2 ]]; then compgen -f -X "!$2" -- "$1"; compgen -d -- "$1"; else compgen -f -- "$1"; fi | sort -u)
}

# COMPREPLY: the options of $1 (a list) that start with $2, "--NAME=" for
# those that take a value (all but those in $3), without the space after.
_db_options()
{
    local o
    COMPREPLY=()
    for o in $1; do
        [[ " $3 " == *" $o "* ]] || o="$o="
        [[ $o == "$2"* ]] && COMPREPLY+=("$o")
    done
    [[ ${#COMPREPLY[@]} == 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
    return 0
}

_drivebench()
{
    local prog=${COMP_WORDS[0]} cur cmd= sub= i w n=0
    local -a _db_words list args
    local _db_cword _db_pre
    _db_words
    cur=${_db_words[_db_cword]}
    COMPREPLY=()
    # the command (plan's and host's with their subcommand) and the
    # positional arguments before the cursor
    for ((i = 1; i < _db_cword; i++)); do
        w=${_db_words[i]}
        [[ $w == -* ]] && continue
        if [[ -z $cmd ]]; then cmd=$w
        elif [[ -z $sub && ( $cmd == plan || $cmd == host ) ]]; then sub=$w
        else n=$((n + 1))
        fi
    done
    mapfile -t list < <("$prog" --list-options 2>/dev/null)
    if [[ -z $cmd ]]; then
        _db_reply "$(printf '%s\n' "${list[@]}" | awk 'NF == 2 { print $2 }')" "$cur"
        return 0
    fi
    if [[ ( $cmd == plan || $cmd == host ) && -z $sub ]]; then
        _db_reply "$(printf '%s\n' "${list[@]}" | awk -v c="$cmd" '$1 == "command" && $2 == c && NF == 3 { print $3 }')" "$cur"
        return 0
    fi
    [[ -n $sub ]] && cmd="$cmd $sub"
    case $cur in
    --domain-type=*) _db_reply "kvm qemu auto" "${cur#*=}"; return 0 ;;
    --plan=*)        _db_files "${cur#*=}" '*.ini'; return 0 ;;
    --*=*)           _db_files "${cur#*=}"; return 0 ;;
    -*)
        _db_options "$(printf '%s\n' "${list[@]}" \
                       | awk -v c="$cmd" '$1 == "option" && NF > 2 { o = $NF; $1 = ""; $NF = "";
                                          gsub(/^ +| +$/, ""); if ($0 == c) print o }')" \
                    "$cur" "--force --charts --png --rank --all-runs --highlight --baseline"
        return 0 ;;
    esac
    case $cmd in
    teardown)
        args=()
        for w in "${_db_words[@]}"; do
            [[ $w == --uri=* || $w == --results=* ]] && args+=("$w")
        done
        _db_reply "$("$prog" list "${args[@]}" 2>/dev/null | awk 'NR > 1 { print $1 }' | sort -u)" "$cur" ;;
    resume|bundle)
        local dir=results
        for w in "${_db_words[@]}"; do [[ $w == --results=* ]] && dir=${w#--results=}; done
        _db_reply "$(cd "$dir" 2>/dev/null && compgen -d)" "$cur" ;;
    verify)             _db_files "$cur" '*.tar.gz' ;;
    report|summarize)   COMPREPLY=($(compgen -d -- "$cur")) ;;
    "plan get")         ((n >= 2)) && _db_files "$cur" '*.ini' ;;   # SECTION KEY PLAN
    *)                  _db_files "$cur" '*.ini' ;;                 # a PLAN
    esac
    return 0
}

_oltp()
{
    local prog=${COMP_WORDS[0]} cur i n=0 list
    local -a _db_words
    local _db_cword _db_pre
    _db_words
    cur=${_db_words[_db_cword]}
    COMPREPLY=()
    case $cur in
    --db-driver=*)              _db_reply "mysql pgsql odbc" "${cur#*=}"; return 0 ;;
    --config-file=*|--json=*)   _db_files "${cur#*=}"; return 0 ;;
    --*=*)                      return 0 ;;
    -*)
        _db_options "$("$prog" --list-options 2>/dev/null | awk '$1 == "option" { print $2 }')" \
                    "$cur" "--help --version"
        return 0 ;;
    esac
    for ((i = 1; i < _db_cword; i++)); do
        [[ ${_db_words[i]} != -* ]] && n=$((n + 1))
    done
    if ((n == 0)); then         # the workload, or ping
        list="$("$prog" --help 2>/dev/null | awk '/^Workloads:/ { w = 1; next } w && NF == 0 { w = 0 } w { print $1 }') ping"
    elif ((n == 1)); then       # the command
        list=$("$prog" --list-options 2>/dev/null | awk '$1 == "command" && $2 != "ping" { print $2 }')
    fi
    _db_reply "$list" "$cur"
    return 0
}
complete -F _drivebench drivebench
complete -F _oltp oltp sysbench
