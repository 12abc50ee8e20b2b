# Man pages for tilescope and tilescope-cli, made at build time by help2man from each program's
# --help (tilescope-cli's with every command's own --help under COMMANDS), and installed
# gzipped, as Debian installs man pages, to share/man/man1. Without help2man there are none,
# and CMake says so. The uncompressed pages stay in build/man for tests/repo/man_pages_test.
find_program(HELP2MAN help2man)
find_program(GZIP gzip)
if(NOT HELP2MAN OR NOT GZIP)
  message(STATUS "help2man not found: no man pages for tilescope and tilescope-cli (scripts/install-deps installs it)")
  return()
endif()

set(man_dir ${PROJECT_BINARY_DIR}/man)
# The help names where the data lives and where the tuner writes; in a man page those are the
# installed package's and the reader's, not the build machine's (FILES in packaging/*.h2m).
set(man_environment TILESCOPE_DATA_DIR=${CPACK_PACKAGING_INSTALL_PREFIX}/share/tilescope HOME=~ XDG_DATA_HOME=)

# tilescope_man_page(TARGET NAME [INCLUDES file...] [DEPENDS file...]): build/man/TARGET.1 and .1.gz.
function(tilescope_man_page target name)
  cmake_parse_arguments(ARG "" "" "INCLUDES;DEPENDS" ${ARGN})
  set(page ${man_dir}/${target}.1)
  set(includes)
  foreach(file IN LISTS ARG_INCLUDES)
    list(APPEND includes --include=${file})
  endforeach()
  # --locale: help2man's default, C, writes the help's dashes and × as question marks.
  add_custom_command(
    OUTPUT ${page} ${page}.gz
    COMMAND ${CMAKE_COMMAND} -E make_directory ${man_dir}
    COMMAND ${CMAKE_COMMAND} -E env ${man_environment}
            ${HELP2MAN} --no-info --locale=C.UTF-8 --version-string=${PROJECT_VERSION} --name=${name} ${includes}
            --output=${page} $<TARGET_FILE:${target}>
    COMMAND ${GZIP} -9 -n -k -f ${page}
    DEPENDS ${target} ${ARG_INCLUDES} ${ARG_DEPENDS}
    COMMENT "Man page ${target}.1 (help2man)"
    VERBATIM)
  install(FILES ${page}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endfunction()

set(man_pages)
if(TARGET tilescope)
  tilescope_man_page(tilescope "see and measure how CUDA matrix multiplication works"
                     INCLUDES ${PROJECT_SOURCE_DIR}/packaging/tilescope.h2m)
  list(APPEND man_pages ${man_dir}/tilescope.1.gz)
endif()
# tilescope-cli's commands, each with its own --help: written by cmake/ManCommands.cmake.
add_custom_command(
  OUTPUT ${man_dir}/tilescope-cli-commands.h2m
  COMMAND ${CMAKE_COMMAND} -E make_directory ${man_dir}
  COMMAND ${CMAKE_COMMAND} -E env ${man_environment}
          ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:tilescope-cli> -DOUTPUT=${man_dir}/tilescope-cli-commands.h2m
          -P ${PROJECT_SOURCE_DIR}/cmake/ManCommands.cmake
  DEPENDS tilescope-cli ${PROJECT_SOURCE_DIR}/cmake/ManCommands.cmake
  VERBATIM)
tilescope_man_page(tilescope-cli "TileScope's command-line tools: bench, check, tune, roofline and more, without a display"
                   INCLUDES ${man_dir}/tilescope-cli-commands.h2m ${PROJECT_SOURCE_DIR}/packaging/tilescope-cli.h2m)
list(APPEND man_pages ${man_dir}/tilescope-cli.1.gz)
add_custom_target(man_pages ALL DEPENDS ${man_pages})

if(TARGET man_pages_test)
  add_dependencies(man_pages_test man_pages)
  target_compile_definitions(man_pages_test PRIVATE TILESCOPE_MAN_PAGES=1 $<$<TARGET_EXISTS:tilescope>:TILESCOPE_MAN_PAGE_APP=1>)
endif()
