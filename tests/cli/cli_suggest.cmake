# "did you mean" under an unknown option: the closest option of the
# command (an edit or two, or the one option the word begins); nothing for
# a word close to none.
foreach(c
    "run|--gird|--grid"
    "run|--max-step|--max-steps"
    "lint|--fail-onn|--fail-on"
    "global|--strid|--stride"
    "shared|--sise|--size"
    "expr|--blok|--block"
    "compare|--tolerence|--tolerance")
  string(REPLACE "|" ";" parts "${c}")
  list(GET parts 0 cmd)
  list(GET parts 1 typo)
  list(GET parts 2 want)
  string(REPLACE "-" "" tname "${cmd}${typo}")
  wm_cli_test(NAME suggest_${tname} ARGS ${cmd} ${typo} 1 EXIT 2
    STDERR "^warpmem: error: ${cmd}: unknown option '${typo}'[^\n]*\nwarpmem: did you mean '${want}'\\?\n$")
endforeach()
wm_cli_test(NAME suggest_none ARGS run tests/ptx/basic.ptx --frob EXIT 2
  STDERR "^warpmem: error: run: unknown option '--frob'\n$")
wm_cli_test(NAME suggest_value ARGS run tests/ptx/basic.ptx --gird=2 EXIT 2
  STDERR "unknown option '--gird=2'\nwarpmem: did you mean '--grid'\\?\n$")
