# install.cmake -- the install as a user meets it (cmake -P).
#   STEP=stage      cmake --install BUILD into WORK/prefix and check that
#                   every installed file a user needs is there
#   STEP=package    build and run tests/consumer with find_package(warpmem)
#   STEP=pkgconfig  the same with pkg-config (PKG_CONFIG_PATH)
#   STEP=version    find_package(warpmem 99.0) must fail: the version file
#                   refuses a release it is not
#   STEP=subdir     configure tests/consumer with add_subdirectory() of the
#                   source tree: warpmem::warpmem must exist (a missing
#                   namespaced target fails generation)
# Inputs: BUILD, SRC (source tree), WORK (scratch), CC, SAN (sanitizer
# flags, space-separated, for linking an ASan-built library).
set(prefix ${WORK}/prefix)

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(run_out "${out}" PARENT_SCOPE)
endfunction()

# Configure and build the consumer in WORK/<name>, then run it.
function(consumer name)
  set(dir ${WORK}/${name})
  file(REMOVE_RECURSE ${dir})
  run(${CMAKE_COMMAND} -S ${SRC}/tests/consumer -B ${dir}
      -DCMAKE_C_COMPILER=${CC} "-DCMAKE_C_FLAGS=${SAN}"
      "-DCMAKE_EXE_LINKER_FLAGS=${SAN}" ${ARGN})
  run(${CMAKE_COMMAND} --build ${dir})
  run(${dir}/consumer)
  if(NOT run_out MATCHES "^warpmem [0-9]+\\.[0-9]+\\.[0-9]+: 32 sectors")
    message(FATAL_ERROR "consumer printed: ${run_out}")
  endif()
  message(STATUS "${name}: ${run_out}")
endfunction()

if(STEP STREQUAL "stage")
  file(REMOVE_RECURSE ${WORK})
  run(${CMAKE_COMMAND} --install ${BUILD} --prefix ${prefix})
  file(GLOB cfg ${prefix}/lib*/cmake/warpmem/warpmemConfig.cmake)
  file(GLOB ver ${prefix}/lib*/cmake/warpmem/warpmemConfigVersion.cmake)
  file(GLOB pc ${prefix}/lib*/pkgconfig/warpmem.pc)
  foreach(f cfg ver pc)
    if(NOT ${f})
      message(FATAL_ERROR "not installed: ${f} under ${prefix}")
    endif()
  endforeach()
  foreach(f bin/warpmem include/warpmem.h share/man/man1/warpmem.1
            share/bash-completion/completions/warpmem
            share/zsh/site-functions/_warpmem)
    if(NOT EXISTS ${prefix}/${f})
      message(FATAL_ERROR "not installed: ${prefix}/${f}")
    endif()
  endforeach()
  # the installed command and header carry one version
  run(${prefix}/bin/warpmem --version)
  file(STRINGS ${prefix}/include/warpmem.h lines
       REGEX "^#define WM_VERSION_(MAJOR|MINOR|PATCH) ")
  string(REGEX REPLACE "#define WM_VERSION_[A-Z]+ " "" nums "${lines}")
  string(REPLACE ";" "." v "${nums}")
  if(NOT run_out STREQUAL "warpmem ${v}\n")
    message(FATAL_ERROR "warpmem --version: '${run_out}', header ${v}")
  endif()
elseif(STEP STREQUAL "package")
  consumer(package "-DCMAKE_PREFIX_PATH=${prefix}"
           -DWM_CONSUMER_VERSION=${VERSION})
elseif(STEP STREQUAL "pkgconfig")
  file(GLOB pcdir ${prefix}/lib*/pkgconfig)
  set(ENV{PKG_CONFIG_PATH} ${pcdir})
  run(pkg-config --modversion warpmem)
  if(NOT run_out STREQUAL "${VERSION}\n")
    message(FATAL_ERROR "pkg-config --modversion: '${run_out}'")
  endif()
  consumer(pkgconfig -DWM_CONSUMER_MODE=pkgconfig)
elseif(STEP STREQUAL "version")
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${SRC}/tests/consumer
    -B ${WORK}/version "-DCMAKE_PREFIX_PATH=${prefix}"
    -DWM_CONSUMER_VERSION=99.0 RESULT_VARIABLE rc OUTPUT_VARIABLE out
    ERROR_VARIABLE err)
  if(rc EQUAL 0 OR NOT err MATCHES "version: ${VERSION}")
    message(FATAL_ERROR "find_package(warpmem 99.0) was not refused:\n${err}")
  endif()
elseif(STEP STREQUAL "subdir")
  file(REMOVE_RECURSE ${WORK}/subdir)
  run(${CMAKE_COMMAND} -S ${SRC}/tests/consumer -B ${WORK}/subdir
      -DCMAKE_C_COMPILER=${CC} -DWM_CONSUMER_MODE=subdir -DWM_SOURCE=${SRC})
else()
  message(FATAL_ERROR "STEP: '${STEP}'")
endif()
