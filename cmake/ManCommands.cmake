# cmake -DPROGRAM=tilescope-cli -DOUTPUT=FILE -P ManCommands.cmake: a help2man include file whose
# COMMANDS section holds the --help of each command PROGRAM's own --help lists (under
# "Subcommands:", or "SUBCOMMANDS:" as newer CLI11 prints it), so that the man page has every
# command's flags.
execute_process(COMMAND ${PROGRAM} --help OUTPUT_VARIABLE help RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} --help failed (${status})")
endif()
string(REGEX MATCH "(SUBCOMMANDS|Subcommands):\n.*" listed "${help}")
string(REGEX MATCHALL "\n  [a-z][a-z-]*" names "${listed}")
if(NOT names)
  message(FATAL_ERROR "${PROGRAM} --help lists no subcommands")
endif()
set(text "[COMMANDS]\n")
foreach(name IN LISTS names)
  string(STRIP "${name}" name)
  execute_process(COMMAND ${PROGRAM} ${name} --help OUTPUT_VARIABLE command_help RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${PROGRAM} ${name} --help failed (${status})")
  endif()
  # Roff: a backslash is \e, and a line starting with . or ' would be a request.
  string(REPLACE "\\" "\\e" command_help "${command_help}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" command_help "${command_help}")
  string(APPEND text ".SS ${name}\n.nf\n${command_help}.fi\n")
endforeach()
file(WRITE ${OUTPUT} "${text}")
