# Embeds the real kernel sources (kernels/*.cu, the rungs' own *.cuh, and kernels/common/ where the ladder's shared
# bodies live) into a generated header, so the theatre's source panel shows exactly the code that runs on the GPU.
# Each is named by its path under kernels/: "05_tiled.cu", "common/ladder_vector.cuh". Included from
# app/views/CMakeLists.txt; `target` gets the generated directory on its include path.
function(tilescope_embed_kernel_sources target)
  file(GLOB kernel_files CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/kernels/*.cu" "${PROJECT_SOURCE_DIR}/kernels/*.cuh"
       "${PROJECT_SOURCE_DIR}/kernels/common/*.cu" "${PROJECT_SOURCE_DIR}/kernels/common/*.cuh")
  # GLOB's CONFIGURE_DEPENDS notices added or removed files; this notices edits.
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${kernel_files})
  set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/generated")
  set(content "// Generated from kernels/*.cu by app/views/theatre/kernel_sources.cmake: do not edit.\n")
  string(APPEND content "#pragma once\n\n#include <string_view>\n\nnamespace ts::views::generated {\n\n")
  string(APPEND content "struct KernelSource {\n    std::string_view file;\n    std::string_view text;\n};\n\n")
  string(APPEND content "inline constexpr KernelSource kKernelSources[] = {\n")
  foreach(file IN LISTS kernel_files)
    file(RELATIVE_PATH name "${PROJECT_SOURCE_DIR}/kernels" "${file}")
    file(READ "${file}" text)
    string(FIND "${text}" ")tilescope_src\"" clash)
    if(NOT clash EQUAL -1)
      message(FATAL_ERROR "${file} contains the raw-string delimiter )tilescope_src\"")
    endif()
    string(APPEND content "    {\"${name}\", R\"tilescope_src(${text})tilescope_src\"},\n")
  endforeach()
  string(APPEND content "};\n\n}  // namespace ts::views::generated\n")
  # Written through configure_file so an unchanged header keeps its timestamp.
  file(WRITE "${out_dir}/kernel_sources.hpp.in" "${content}")
  configure_file("${out_dir}/kernel_sources.hpp.in" "${out_dir}/kernel_sources.hpp" COPYONLY)
  target_include_directories(${target} PRIVATE "${out_dir}")
endfunction()
