cmake_minimum_required(VERSION 3.16)
# Checks that a file written by an earlier test matches regexes:
#   cmake -DFILE=path "-DREGEX=re1@SEP@re2..." -P file_match.cmake
# Fails (naming the regex) when the file is missing or a regex misses.
if(NOT EXISTS "${FILE}")
  message(FATAL_ERROR "missing file ${FILE}")
endif()
file(READ "${FILE}" text)
string(REPLACE "@SEP@" ";" res "${REGEX}")
set(fail "")
foreach(re ${res})
  if(NOT "${text}" MATCHES "${re}")
    string(APPEND fail "${FILE} does not match: ${re}\n")
  endif()
endforeach()
if(NOT "${fail}" STREQUAL "")
  message(FATAL_ERROR "${fail}")
endif()
