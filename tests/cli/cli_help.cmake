# --help, the manual page and the completions come from cli/help.def
# (cli/doc/gendoc.c); these tests check that they agree with each other
# and with the parsers (tests/cli/help_check.cmake), that the page renders
# without a warning, and what the bash completion offers
# (tests/cli/completion_check.sh) and hands zsh (tests/cli/completion_zsh.sh).
set(wm_help_args -DBIN=$<TARGET_FILE:warpmem>
  -DGENDOC=$<TARGET_FILE:warpmem-gendoc> -DMAN=${PROJECT_BINARY_DIR}/warpmem.1
  -DSRC=${PROJECT_SOURCE_DIR})
foreach(step width parse known)
  add_test(NAME help_${step} COMMAND ${CMAKE_COMMAND} -DSTEP=${step}
    ${wm_help_args} -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/help_check.cmake)
endforeach()

find_program(WM_MANDOC mandoc)
find_program(WM_GROFF groff)
find_program(WM_COL col)
if(WM_MANDOC)
  set(wm_render ${WM_MANDOC})
  # mandoc's lint: no message at warning level or above (exit 0)
  add_test(NAME man_lint COMMAND ${WM_MANDOC} -T lint -W warning
    ${PROJECT_BINARY_DIR}/warpmem.1)
else()
  set(wm_render ${WM_GROFF})
endif()
if(WM_GROFF)
  # groff with every warning on must stay silent
  add_test(NAME man_groff COMMAND ${CMAKE_COMMAND} -E env sh -c
    "out=$(${WM_GROFF} -mdoc -ww -z ${PROJECT_BINARY_DIR}/warpmem.1 2>&1) && test -z \"$out\" || { echo \"$out\"; exit 1; }")
endif()
find_program(WM_MAN man)
if(WM_MAN AND WM_GROFF)
  # `man ./warpmem.1` as a reader types it: a page with its sections, and
  # nothing on stderr with groff's warnings on
  add_test(NAME man_render COMMAND sh -c
    "MANWIDTH=80 ${WM_MAN} --warnings -l ${PROJECT_BINARY_DIR}/warpmem.1 >man.out 2>man.err && test ! -s man.err && grep -q 'EXIT STATUS' man.out && grep -q 'warpmem run' man.out || { cat man.err; exit 1; }")
  set_tests_properties(man_render PROPERTIES
    WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
endif()
if(wm_render AND WM_COL)
  add_test(NAME help_agree COMMAND ${CMAKE_COMMAND} -DSTEP=agree
    ${wm_help_args} -DRENDER=${wm_render} -DCOL=${WM_COL}
    -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/help_check.cmake)
endif()

find_program(WM_BASH bash)
if(WM_BASH)
  add_test(NAME completion_bash COMMAND ${WM_BASH}
    ${CMAKE_CURRENT_SOURCE_DIR}/cli/completion_check.sh
    ${PROJECT_BINARY_DIR}/warpmem.bash $<TARGET_FILE:warpmem>
    ${PROJECT_SOURCE_DIR})
endif()
find_program(WM_ZSH zsh)
if(WM_ZSH)
  add_test(NAME completion_zsh_syntax COMMAND ${WM_ZSH} -n
    ${PROJECT_BINARY_DIR}/_warpmem)
  add_test(NAME completion_zsh COMMAND ${WM_ZSH} -f
    ${CMAKE_CURRENT_SOURCE_DIR}/cli/completion_zsh.sh ${PROJECT_BINARY_DIR}/_warpmem
    $<TARGET_FILE_DIR:warpmem> ${PROJECT_SOURCE_DIR})
  # In the sanitizer build, LeakSanitizer's exit-time scan of the
  # `warpmem run FILE --list` that the completion runs in a $(...) under
  # zsh stops the process with ptrace and, in most runs on a 2-core
  # machine, never sees it stop (the tracer waits in wait4, the command
  # spins in sched_yield: a hang).  Leaks of that command line are checked
  # by the run tests; here LeakSanitizer is off (ASan's other checks stay).
  set_tests_properties(completion_zsh PROPERTIES
    ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0" TIMEOUT 120)
endif()

# The table itself (tests/unit/test_help_table.c) reads cli/help_table.c.
if(TARGET test_help_table)
  target_sources(test_help_table PRIVATE ${PROJECT_SOURCE_DIR}/cli/help_table.c)
  target_include_directories(test_help_table PRIVATE ${PROJECT_SOURCE_DIR}/cli)
endif()
