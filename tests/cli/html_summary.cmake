# Pin the summary block of an HTML report:
#   cmake -DBIN=warpmem "-DARGS=a@SEP@b..." -DOUT=report.html
#         -DGOLDEN=file -DWORK_DIR=dir -P html_summary.cmake
# Runs BIN ARGS --html OUT in WORK_DIR, takes the text from
# "<!-- summary -->" to "<!-- /summary -->" and compares it with the
# golden file; WM_UPDATE_GOLDEN=1 in the environment rewrites the file.
cmake_minimum_required(VERSION 3.16)
string(REPLACE "@SEP@" ";" args "${ARGS}")
execute_process(COMMAND ${BIN} ${args} --html ${OUT}
  WORKING_DIRECTORY ${WORK_DIR}
  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "warpmem exited ${rc}: ${err}")
endif()
file(READ "${OUT}" html)
string(FIND "${html}" "<!-- summary -->" from)
string(FIND "${html}" "<!-- /summary -->" to)
if(from LESS 0 OR to LESS from)
  message(FATAL_ERROR "${OUT} has no summary block")
endif()
math(EXPR len "${to} - ${from} + 17")
string(SUBSTRING "${html}" ${from} ${len} summary)
string(APPEND summary "\n")
if("$ENV{WM_UPDATE_GOLDEN}" STREQUAL "1")
  file(WRITE "${GOLDEN}" "${summary}")
  return()
endif()
if(NOT EXISTS "${GOLDEN}")
  message(FATAL_ERROR "missing golden file ${GOLDEN}")
endif()
file(READ "${GOLDEN}" want)
if(NOT summary STREQUAL want)
  file(WRITE "${OUT}.summary" "${summary}")
  message(FATAL_ERROR "the summary of ${OUT} differs from ${GOLDEN} "
    "(got ${OUT}.summary; WM_UPDATE_GOLDEN=1 accepts it)")
endif()
