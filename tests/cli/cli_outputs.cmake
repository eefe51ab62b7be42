# `warpmem run` outputs lose nothing (tests/cli/outputs_check.sh, docs/cli.md
# "Output files"): refusals of outputs naming inputs or each other, the
# commit only after everything succeeded, faults and stops, /dev/full and
# a read-only directory.
foreach(c html_is_kernel out_is_kernel out_is_file_input out_is_compare
          out_twice out_is_html clean fault budget stdout_full html_fails
          readonly_dir)
  add_test(NAME cli_outputs_${c}
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/outputs_check.sh
            $<TARGET_FILE:warpmem> ${PROJECT_SOURCE_DIR} ${c})
  set_tests_properties(cli_outputs_${c} PROPERTIES SKIP_RETURN_CODE 77)
endforeach()
