# One dlsim command line: its exit status must be RC and its stderr must
# match the regular expression ERR (and stdout OUT when given). ARGS has
# '|' between words; STDOUT_FILE sends stdout to a file (/dev/full); CWD
# runs it elsewhere; COPY_TO first copies dlsim alone into that directory and
# runs the copy. EMULATOR (cross builds) has '|' between its words.
string(REPLACE "|" ";" emulator "${EMULATOR}")
string(REPLACE "|" ";" args "${ARGS}")
set(exe ${DLSIM})
if(COPY_TO)
  file(REMOVE_RECURSE ${COPY_TO})
  file(MAKE_DIRECTORY ${COPY_TO})
  file(COPY ${DLSIM} DESTINATION ${COPY_TO})
  get_filename_component(name ${DLSIM} NAME)
  set(exe ${COPY_TO}/${name})
endif()
if(NOT CWD)
  set(CWD .)
endif()
if(STDOUT_FILE)
  execute_process(COMMAND ${emulator} ${exe} ${args} WORKING_DIRECTORY ${CWD}
    OUTPUT_FILE ${STDOUT_FILE} ERROR_VARIABLE err RESULT_VARIABLE rc)
  set(out "")
else()
  execute_process(COMMAND ${emulator} ${exe} ${args} WORKING_DIRECTORY ${CWD}
    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
endif()
if(NOT rc STREQUAL "${RC}")
  message(FATAL_ERROR "dlsim ${args}: exit ${rc}, want ${RC}\n--- stderr ---\n${err}\n--- stdout ---\n${out}")
endif()
if(NOT err MATCHES "${ERR}")
  message(FATAL_ERROR "dlsim ${args}: stderr does not match\n  ${ERR}\n--- stderr ---\n${err}")
endif()
if(DEFINED OUT AND NOT out MATCHES "${OUT}")
  message(FATAL_ERROR "dlsim ${args}: stdout does not match\n  ${OUT}\n--- stdout ---\n${out}")
endif()
