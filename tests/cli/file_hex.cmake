cmake_minimum_required(VERSION 3.16)
# Checks a binary file written by an earlier test, byte for byte:
#   cmake -DFILE=path -DHEX=0a1b... [-DOFFSET=n] [-DLIMIT=n] -P file_hex.cmake
# HEX is the expected content from OFFSET (default 0) to the end (or LIMIT
# bytes), in lowercase hex digits.
if(NOT EXISTS "${FILE}")
  message(FATAL_ERROR "missing file ${FILE}")
endif()
if(NOT DEFINED OFFSET)
  set(OFFSET 0)
endif()
if(DEFINED LIMIT)
  file(READ "${FILE}" got OFFSET ${OFFSET} LIMIT ${LIMIT} HEX)
else()
  file(READ "${FILE}" got OFFSET ${OFFSET} HEX)
endif()
if(NOT "${got}" STREQUAL "${HEX}")
  message(FATAL_ERROR "${FILE} from byte ${OFFSET}:\n  got  ${got}\n  want ${HEX}")
endif()
