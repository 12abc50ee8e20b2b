# nvcc checks its host compiler's version and refuses newer ones than it was released with
# (CUDA 13.0: g++ 15), and CMake's CUDA test compile then fails with a cryptic error. Where
# the C++ compiler is a g++ that nvcc would refuse, pick an older g++ the system has for the
# CUDA code (Debian unstable ships g++ 16 by default and g++-14/15 beside it), and say so.
# If there is none, set TILESCOPE_NO_CUDA_HOST_COMPILER: the build goes on in model mode.

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
        message(WARNING "TileScope: g++ ${CMAKE_CXX_COMPILER_VERSION} is newer than nvcc accepts (at most "
                        "${_newest}) and no g++-${_newest} or older was found: building without CUDA "
                        "(model mode). Install one (scripts/install-deps does, where the system has it) "
                        "and configure again, or pass -DCMAKE_CUDA_HOST_COMPILER=...")
      endif()
    endif()
  endif()
endmacro()
