# `dlsim analyze` through the command line: Dhall's set (examples/dlsim/
# dhall_global.json) is rejected by every global test and by QPA on one CPU
# at the heavy task's first deadline, partitioned it fits; --json is valid
# JSON with one verdict per test; bad usage and a missing file fail clearly.
string(REPLACE "|" ";" emulator "${EMULATOR}")
set(ex ${EXAMPLES}/dhall_global.json)
execute_process(COMMAND ${emulator} ${DLSIM} analyze ${ex}
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "dlsim analyze exited with ${rc}\n${err}")
endif()
foreach(want
    "3 deadline tasks on 2 CPUs"
    "admission +schedulable +bandwidth 1.1434"
    "qpa \\(1 CPU\\) +not schedulable +demand 1200000 ns > supply at t = 1060000 ns \\(deadline of heavy\\)"
    "gfb +not schedulable +cannot show heavy"
    "bak +not schedulable"
    "bcl +not schedulable"
    "rta +not schedulable +bound of heavy"
    "tardiness +bound"
    "ffd \\(utilisation\\) +schedulable +CPU0: heavy CPU1: light-0 light-1")
  if(NOT out MATCHES "${want}")
    message(FATAL_ERROR "missing '${want}' in:\n${out}")
  endif()
endforeach()

execute_process(COMMAND ${emulator} ${DLSIM} analyze ${ex} --json
  OUTPUT_VARIABLE json RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "dlsim analyze --json exited with ${rc}")
endif()
if(CMAKE_VERSION VERSION_LESS 3.19)  # no string(JSON): a shape check only
  if(NOT json MATCHES "^{\"file\": .*\"tests\": \\[.*\"qpa \\(1 CPU\\)\", \"verdict\": \"not schedulable\", \"value\": 1060000")
    message(FATAL_ERROR "unexpected JSON:\n${json}")
  endif()
  return()
endif()
string(JSON ntests LENGTH "${json}" tests)
string(JSON ntasks LENGTH "${json}" tasks)
string(JSON qpa GET "${json}" tests 3 test)
string(JSON qpa_verdict GET "${json}" tests 3 verdict)
string(JSON qpa_at GET "${json}" tests 3 value)
if(NOT ntests EQUAL 15 OR NOT ntasks EQUAL 3 OR NOT qpa STREQUAL "qpa (1 CPU)"
   OR NOT qpa_verdict STREQUAL "not schedulable" OR NOT qpa_at EQUAL 1060000)
  message(FATAL_ERROR "unexpected JSON:\n${json}")
endif()

execute_process(COMMAND ${emulator} ${DLSIM} analyze RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 64 OR NOT err MATCHES "usage: dlsim analyze")
  message(FATAL_ERROR "no FILE: exit ${rc}, '${err}'")
endif()
execute_process(COMMAND ${emulator} ${DLSIM} analyze ${WORKDIR}/no-such.json
  RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 66 OR NOT err MATCHES "cannot read")
  message(FATAL_ERROR "missing file: exit ${rc}, '${err}'")
endif()
