# Check that an HTML report holds some texts: cmake -DFILE=report.html
# "-DRE=regex1@SEP@regex2..." -P html_grep.cmake.  Each regex must match
# somewhere in the file.
cmake_minimum_required(VERSION 3.16)
if(NOT EXISTS "${FILE}")
  message(FATAL_ERROR "missing ${FILE}")
endif()
file(READ "${FILE}" text)
string(REPLACE "@SEP@" ";" res "${RE}")
foreach(re ${res})
  if(NOT text MATCHES "${re}")
    message(FATAL_ERROR "${FILE} does not match '${re}'")
  endif()
endforeach()
