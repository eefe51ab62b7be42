# The nvcc lookup: $CUDA_HOME/bin/nvcc when CUDA_HOME is set (here a
# stand-in that returns tests/ptx/lines.ptx for any .cu), before PATH.
add_test(NAME cli_nvcc_cuda_home
  COMMAND ${CMAKE_COMMAND} -E env
    CUDA_HOME=${CMAKE_CURRENT_SOURCE_DIR}/nvcc_home
    $<TARGET_FILE:warpmem> run tests/ptx/basic.cu --list
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(cli_nvcc_cuda_home PROPERTIES
  PASS_REGULAR_EXPRESSION "lines_")
# a CUDA_HOME without nvcc falls back to PATH (the stand-in put there)
add_test(NAME cli_nvcc_path_fallback
  COMMAND ${CMAKE_COMMAND} -E env CUDA_HOME=/nonexistent
    "PATH=${CMAKE_CURRENT_SOURCE_DIR}/nvcc_home/bin:$ENV{PATH}"
    $<TARGET_FILE:warpmem> run tests/ptx/basic.cu --list
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(cli_nvcc_path_fallback PROPERTIES
  PASS_REGULAR_EXPRESSION "lines_")
