# nvcc checks its host compiler's version and refuses newer ones than it was released with
# (CUDA 13.0: g++ 15), and CMake's CUDA test compile then fails with a cryptic error. Where
# the C++ compiler is a g++ that nvcc would refuse, pick an older g++ the system has for the
# CUDA code (Debian unstable ships g++ 16 by default and g++-14/15 beside it), and say so.
# If there is none, or nvcc cannot compile even an empty kernel against this system's headers
# (CUDA 13.0 and glibc 2.42 disagree about the math functions' exception specifications),
# set TILESCOPE_NO_CUDA_HOST_COMPILER with one message that says why: the build goes on in
# model mode instead of stopping on CMake's compiler check.

# The newest g++ major version that `nvcc` accepts, read from the toolkit's own check in
# crt/host_config.h ("#if __GNUC__ > 15 ... #error unsupported GNU version"); empty if unknown.
function(tilescope_nvcc_newest_gcc nvcc out)
  get_filename_component(nvcc_real "${nvcc}" REALPATH)
  get_filename_component(bin_dir "${nvcc_real}" DIRECTORY)
  set(newest "")
  foreach(header ${bin_dir}/../include/crt/host_config.h
                 ${bin_dir}/../targets/x86_64-linux/include/crt/host_config.h)
    if(EXISTS ${header})
      file(STRINGS ${header} lines REGEX "^#if __GNUC__ > [0-9]+$")
      if(lines)
        list(GET lines 0 line)
        string(REGEX REPLACE "^#if __GNUC__ > ([0-9]+)$" "\\1" newest "${line}")
        break()
      endif()
    endif()
  endforeach()
  set(${out} "${newest}" PARENT_SCOPE)
endfunction()

# Compiles an empty kernel with `nvcc` and `host` (empty: nvcc's default); sets `out` to
# the first error nvcc printed, or to "" when it compiled.
function(tilescope_nvcc_smoke_test nvcc host out)
  set(dir ${CMAKE_BINARY_DIR}/CMakeFiles/TileScopeNvccCheck)
  file(MAKE_DIRECTORY ${dir})
  file(WRITE ${dir}/empty.cu "#include <cmath>\n__global__ void empty_kernel(float* x) { x[0] = sqrtf(x[0]); }\n")
  set(ccbin "")
  if(host)
    set(ccbin -ccbin ${host})
  endif()
  execute_process(COMMAND ${nvcc} ${ccbin} -std=c++20 -c empty.cu -o empty.o
                  WORKING_DIRECTORY ${dir} RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(result EQUAL 0)
    set(${out} "" PARENT_SCOPE)
  else()
    string(REGEX MATCH "[^\n]*error[^\n]*" first_error "${output}")
    if(NOT first_error)
      set(first_error "nvcc failed (${result})")
    endif()
    set(${out} "${first_error}" PARENT_SCOPE)
  endif()
endfunction()

macro(tilescope_pick_cuda_host_compiler)
  set(TILESCOPE_NO_CUDA_HOST_COMPILER OFF)
  set(_nvcc "${CMAKE_CUDA_COMPILER}")
  if(NOT _nvcc AND DEFINED ENV{CUDACXX})
    set(_nvcc "$ENV{CUDACXX}")
  endif()
  if(_nvcc AND NOT CMAKE_CUDA_HOST_COMPILER AND NOT DEFINED ENV{CUDAHOSTCXX}
     AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    tilescope_nvcc_newest_gcc("${_nvcc}" _newest)
    string(REGEX MATCH "^[0-9]+" _gxx_major "${CMAKE_CXX_COMPILER_VERSION}")
    if(_newest AND _gxx_major GREATER _newest)
      set(_candidates "")
      foreach(_version RANGE ${_newest} 11 -1)
        list(APPEND _candidates g++-${_version})
      endforeach()
      find_program(TILESCOPE_CUDA_HOST_GXX NAMES ${_candidates}
                   DOC "An older g++ that nvcc accepts, for the CUDA code")
      if(TILESCOPE_CUDA_HOST_GXX)
        set(CMAKE_CUDA_HOST_COMPILER "${TILESCOPE_CUDA_HOST_GXX}" CACHE FILEPATH "Host compiler for nvcc")
        message(STATUS "TileScope: g++ ${CMAKE_CXX_COMPILER_VERSION} is newer than nvcc accepts (at most "
                       "${_newest}); compiling the CUDA code with ${TILESCOPE_CUDA_HOST_GXX}")
      else()
        set(TILESCOPE_NO_CUDA_HOST_COMPILER ON)
        set(TILESCOPE_NO_CUDA_REASON "no g++ that nvcc accepts was found at build time")
        message(WARNING "TileScope: g++ ${CMAKE_CXX_COMPILER_VERSION} is newer than nvcc accepts (at most "
                        "${_newest}) and no g++-${_newest} or older was found: building without CUDA "
                        "(model mode). Install one (scripts/install-deps does, where the system has it) "
                        "and configure again, or pass -DCMAKE_CUDA_HOST_COMPILER=...")
      endif()
    endif()
  endif()
  if(_nvcc AND NOT TILESCOPE_NO_CUDA_HOST_COMPILER AND EXISTS "${_nvcc}")
    tilescope_nvcc_smoke_test("${_nvcc}" "${CMAKE_CUDA_HOST_COMPILER}" _nvcc_error)
    if(_nvcc_error)
      set(TILESCOPE_NO_CUDA_HOST_COMPILER ON)
      set(TILESCOPE_NO_CUDA_REASON "nvcc could not compile against the build system's headers")
      message(WARNING "TileScope: ${_nvcc} cannot compile an empty kernel on this system, so TileScope is built "
                      "without CUDA (model mode). nvcc said: ${_nvcc_error}\n"
                      "A CUDA toolkit newer than this system's C library and compiler may fix it.")
    endif()
  endif()
endmacro()
