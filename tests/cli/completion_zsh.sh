#!/usr/bin/env zsh
# completion_zsh.sh ZSH_COMPLETION WARPMEM_DIR SRC -- load the generated
# zsh completion with zsh's completion builtins replaced by printers, and
# check what it hands them: the commands, each command's option specs, the
# kernels of a PTX file and the profiles.  Exit 0 when every case holds.
emulate -L zsh
comp=$1
path=($2 $path)
cd $3 || exit 1
integer fails=0
_arguments() { print -rl -- "$@" }
_describe() { print -rl -- "${(@P)4}" }  # -t TAG DESCRIPTION ARRAY
compadd() {
    if [[ $1 == -a ]]; then print -rl -- "${(@P)2}"; else print -rl -- "$@"; fi
}

# check NAME OUTPUT PATTERN [!]: OUTPUT has (or, with !, lacks) a line
# matching PATTERN
check() {
    local hit=0 l
    for l in "${(@f)2}"; do [[ $l == ${~3} ]] && hit=1; done
    if [[ ${4:-} == '!' ]]; then (( hit )) && { print "$1: '$3' offered"; (( fails++ )) }
    else (( hit )) || { print "$1: no '$3' in:"; print -r -- "$2"; (( fails++ )) }; fi
}

# complete WORDS...: the completion function run for the last word
complete_words() {
    local -a words
    words=("$@")
    integer CURRENT=$#words
    source $comp
}

complete_words warpmem '' >/dev/null  # defines the helpers here too
out=$(complete_words warpmem '')
check commands "$out" 'run:interpret*'
check commands "$out" 'lint:judge*'
out=$(complete_words warpmem global --)
check global "$out" '\*--local\[*'
check global "$out" '\*--format\[*:value:\(text json csv ncu-csv ncu-raw\)'
out=$(complete_words warpmem shared --)
check shared "$out" '\*--local\[*' '!'
check shared "$out" '\*--stride\[*'
out=$(complete_words warpmem run x.ptx --)
check run "$out" '\*--kernel\[*:kernel:_warpmem_kernels'
check run "$out" '\*:kernel file:_files*'
out=$(words=(warpmem run examples/kernels/sm_80/transpose.ptx --kernel '')
      _warpmem_kernels)
check kernels "$out" 'transpose_tiled'
check kernels "$out" 'transpose_swizzled'
check kernels "$out" 'transpose_naive'
out=$(_warpmem_archs)
check archs "$out" 'sm_80'
check archs "$out" 'sm_90'
(( fails == 0 )) || exit 1
print "zsh completion: all cases match"
