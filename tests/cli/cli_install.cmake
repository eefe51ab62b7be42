# The staged install and a user's project built against it
# (tests/cli/install.cmake, tests/consumer/): files in place, find_package and
# pkg-config consumers that build, run and check a counted value, a
# version request the package refuses, add_subdirectory() use.
find_program(WM_PKG_CONFIG NAMES pkg-config pkgconf)
string(REPLACE ";" " " wm_san_joined "${WM_SAN_FLAGS}")
foreach(step stage package pkgconfig version subdir)
  if(step STREQUAL "pkgconfig" AND NOT WM_PKG_CONFIG)
    continue()
  endif()
  add_test(NAME install_${step}
    COMMAND ${CMAKE_COMMAND} -DSTEP=${step} -DBUILD=${PROJECT_BINARY_DIR}
      -DSRC=${PROJECT_SOURCE_DIR} -DWORK=${CMAKE_CURRENT_BINARY_DIR}/install
      -DCC=${CMAKE_C_COMPILER} "-DSAN=${wm_san_joined}"
      -DVERSION=${PROJECT_VERSION}
      -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/install.cmake)
  if(step STREQUAL "stage")
    set_tests_properties(install_stage PROPERTIES FIXTURES_SETUP wm_install)
  else()
    set_tests_properties(install_${step} PROPERTIES
      FIXTURES_REQUIRED wm_install)
  endif()
endforeach()
