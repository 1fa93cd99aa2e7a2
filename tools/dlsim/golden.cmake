# Run dlsim --check on INPUT and compare stdout with GOLDEN byte for byte.
# Set DLSIM_UPDATE_GOLDEN=1 in the environment to rewrite the golden file.
# EMULATOR (cross builds) is the emulator command with '|' between words.
string(REPLACE "|" ";" emulator "${EMULATOR}")
execute_process(COMMAND ${emulator} ${DLSIM} ${INPUT} --check
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "dlsim exited with ${rc}\n${err}")
endif()
if(DEFINED ENV{DLSIM_UPDATE_GOLDEN})
  file(WRITE ${GOLDEN} "${out}")
  return()
endif()
if(NOT EXISTS ${GOLDEN})
  message(FATAL_ERROR "missing golden output ${GOLDEN}\n${out}")
endif()
file(READ ${GOLDEN} want)
if(NOT out STREQUAL want)
  message(FATAL_ERROR "output differs from ${GOLDEN}\n--- got ---\n${out}\n--- want ---\n${want}")
endif()
