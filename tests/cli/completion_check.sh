#!/usr/bin/env bash
# completion_check.sh BASH_COMPLETION WARPMEM SRC -- source the generated
# bash completion and check what it offers for partial command lines.
# Exit 0 when every case matches, else 1 listing the misses.
set -u
. "$1" || exit 1
bin=$2
cd "$3" || exit 1
fails=0

# complete WORDS...: COMPREPLY for the last word (possibly empty)
complete_words() {
    COMP_WORDS=("$bin" "${@}")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMPREPLY=()
    _warpmem
    printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//'
}

# expect "WORDS" "REPLY": the replies, sorted and space-separated
expect() {
    local got
    read -r -a words <<<"$1"
    [[ $1 == *" " ]] && words+=("")
    got=$(complete_words "${words[@]}")
    if [ "$got" != "$2" ]; then
        echo "warpmem $1<TAB>: got '$got', expected '$2'"
        fails=$((fails + 1))
    fi
}

# expect_has "WORDS" WORD: WORD is among the replies
expect_has() {
    local got
    read -r -a words <<<"$1"
    [[ $1 == *" " ]] && words+=("")
    got=" $(complete_words "${words[@]}") "
    if [[ $got != *" $2 "* ]]; then
        echo "warpmem $1<TAB>: '$2' not in '$got'"
        fails=$((fails + 1))
    fi
}

expect "ru" "run"
expect "--v" "--version"
expect "run --gr" "--grid"
expect "run --max-" "--max-steps --max-total-steps"
expect "global --lo" "--local"
expect "shared --lo" ""
expect "lint --fail-on " "high low medium"
expect "run --format " "csv json ncu-csv ncu-raw sarif text"
expect "lint --format " "csv json junit sarif text"
expect "expr --cache-order b" "barrier"
expect "run examples/kernels/sm_80/transpose.ptx --kernel transpose_" \
    "transpose_naive transpose_padded transpose_swizzled transpose_tiled"
expect "lint examples/kernels/sm_80/transpose.ptx -k transpose_s" \
    "transpose_swizzled"
expect "lint examples/kernels/sm_80/trans" "examples/kernels/sm_80/transpose.ptx"
expect_has "run --arch sm_" "sm_80"
expect_has "run --arch sm_" "sm_90"
expect_has "expr --" "--max-accesses"
[ "$fails" -eq 0 ] || exit 1
echo "completion: all cases match"
