# One rule for the profile of every command that reads a kernel (run,
# lint, sass; the Python package follows it too): --arch, else the
# module's .target, else the default sm_90; a .cu is compiled for --arch's
# sm, else for the default's.  Each header and JSON document says which.
set(K ${PROJECT_SOURCE_DIR}/examples/kernels/sm_80)
set(P ${PROJECT_SOURCE_DIR}/tests/ptx)
set(KCU ${PROJECT_SOURCE_DIR}/examples/kernels)

# the .target: run and lint agree on sm_80 PTX
wm_cli_test(NAME arch_rule_lint_target
  ARGS lint ${K}/copy.ptx --color never
  STDOUT "\nprofile sm_80 \\(from .target sm_80\\)\n")
wm_cli_test(NAME arch_rule_lint_target_json
  ARGS lint ${K}/copy.ptx --format json
  STDOUT "^.\\{\"schema\": \"warpmem/1\", \"command\": \"lint\", \"arch\": \"sm_80\", \"kernel\": \"copy_f32\", \"profile\": \"sm_80 \\(from .target sm_80\\)\", ")
wm_cli_test(NAME arch_rule_run_target_json
  ARGS run ${K}/copy.ptx --grid 1 --block 32 --arg f32[32] --arg f32[32]
       --arg i32=32 --format json
  STDOUT "^\\{\"schema\": \"warpmem/1\", \"command\": \"run\", \"arch\": \"sm_80\", \"kernel\": \"copy_f32\", \"profile\": \"sm_80 \\(from .target sm_80\\)\", ")

# --arch wins, with the same warning in lint as in run
wm_cli_test(NAME arch_rule_lint_override
  ARGS lint ${K}/copy.ptx --color never --arch H200
  STDOUT "\nprofile H200 \\(--arch\\)\n"
  STDERR "^warpmem: warning: --arch H200 overrides the module's .target sm_80\n$")

# a .target without a profile of its own: the named default, said so
wm_cli_test(NAME arch_rule_run_default
  ARGS run ${P}/target_sm_60.ptx --grid 1 --block 32 --arg f32[32]
       --arg f32[32] --draw 0
  STDOUT "\nprofile sm_90 \\(default: no profile for the .target\\)\n")
wm_cli_test(NAME arch_rule_lint_default
  ARGS lint ${P}/target_sm_60.ptx --format json
  STDOUT "\"arch\": \"sm_90\", \"kernel\": \"copy60\", \"profile\": \"sm_90 \\(default: no profile for the .target\\)\", ")

# a .cu: compiled for the default profile, so run and lint say sm_90
if(WM_NVCC_FOR_RUN)
  get_filename_component(wm_rule_nvcc_dir ${WM_NVCC_FOR_RUN} DIRECTORY)
  wm_cli_test(NAME arch_rule_run_cu
    ARGS run ${KCU}/copy.cu --grid 1 --block 32 --arg f32[32] --arg f32[32]
         --arg i32=32 --draw 0
    STDOUT "\nprofile sm_90 \\(from .target sm_90\\)\n")
  wm_cli_test(NAME arch_rule_lint_cu
    ARGS lint ${KCU}/copy.cu --color never
    STDOUT "\nprofile sm_90 \\(from .target sm_90\\)\n")
  wm_cli_test(NAME arch_rule_run_cu_arch
    ARGS run ${KCU}/copy.cu --grid 1 --block 32 --arg f32[32] --arg f32[32]
         --arg i32=32 --draw 0 --arch A100
    STDOUT "\nprofile A100 \\(--arch\\)\n")
  foreach(t arch_rule_run_cu arch_rule_lint_cu arch_rule_run_cu_arch)
    set_tests_properties(cli_${t} PROPERTIES LABELS nvcc
      ENVIRONMENT "PATH=${wm_rule_nvcc_dir}:$ENV{PATH}")
  endforeach()
endif()
