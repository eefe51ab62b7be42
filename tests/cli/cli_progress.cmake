# The progress line (docs/cli.md, "Progress").  Its text is checked by
# tests/unit/test_progress.c, which compiles cli/progress.c; here the flags:
# both parse, and a run shorter than 2 s shows no line even when asked
# (stderr is empty with --progress), so the output stays as without it.
if(TARGET test_progress)
  target_sources(test_progress PRIVATE ${PROJECT_SOURCE_DIR}/cli/progress.c)
  target_include_directories(test_progress PRIVATE ${PROJECT_SOURCE_DIR}/cli)
endif()

set(K ${PROJECT_SOURCE_DIR}/examples/kernels/sm_80)
foreach(flag --progress --no-progress)
  foreach(j 1 2)
    wm_cli_test(NAME run_progress_short${flag}_j${j}
      ARGS run ${K}/transpose.ptx --kernel transpose_naive --grid 4,4
           --block 32,8 --arg f32[16384] --arg f32[16384]:iota --arg i32=128
           --arg i32=128 -j ${j} ${flag}
      STDOUT "kernel transpose_naive: 16 of 16 CTAs"
      STDERR_GOLDEN stderr_empty.txt)
  endforeach()
endforeach()
wm_cli_test(NAME run_progress_typo
  ARGS run ${K}/transpose.ptx --progres
  EXIT 2 STDERR "did you mean '--progress'")
