# The exit statuses help.def states (`warpmem --help`, EXIT STATUS in
# warpmem.1), one case of each per command: 0 ok, 1 a finding, a fault or
# an unreadable input, 2 usage.  (3, no device, is warpmem-lab's: no
# warpmem command needs a GPU.)
wm_cli_test(NAME exit_help_0 ARGS --help STDOUT "exit status:\n  0  success"
  "\n  2  usage: " "\n  3  no device")
foreach(cmd demo arch)
  wm_cli_test(NAME exit_${cmd}_2 ARGS ${cmd} extra EXIT 2
    STDERR "^warpmem: error: ${cmd}: unexpected argument 'extra'\n$")
endforeach()
wm_cli_test(NAME exit_global_2 ARGS global --size 3 EXIT 2
  STDERR "^warpmem: error: --size: '3' must be 1, 2, 4, 8 or 16\n$")
wm_cli_test(NAME exit_shared_2 ARGS shared --format xml EXIT 2
  STDERR "^warpmem: error: --format: 'xml' is not one of")
wm_cli_test(NAME exit_expr_2 ARGS expr --grid 0 "load global f32 a[4] at [tid.x]"
  EXIT 2 STDERR "^warpmem: error: --grid: '0' is out of range")
foreach(cmd run lint)
  wm_cli_test(NAME exit_${cmd}_1_unreadable ARGS ${cmd} tests/ptx/no-such.ptx
    --grid 1 --block 32 EXIT 1
    STDERR "^warpmem: error: cannot read 'tests/ptx/no-such.ptx'")
  wm_cli_test(NAME exit_${cmd}_1_parse ARGS ${cmd} tests/ptx/bad.ptx
    --grid 1 --block 32 EXIT 1
    STDERR "^tests/ptx/bad.ptx:8:15: error: undeclared register")
  wm_cli_test(NAME exit_${cmd}_2 ARGS ${cmd} tests/ptx/basic.ptx --frob EXIT 2
    STDERR "^warpmem: error: ${cmd}: unknown option '--frob'\n$")
endforeach()
