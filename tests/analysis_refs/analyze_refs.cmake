# `dlsim analyze --json` against published answers.
#  - schedcat_readme.json, schedcat's README task set on 2 CPUs: every
#    global test rejects (README: edf.is_schedulable(2, ts) is False), the
#    tardiness bound is 2 ms (README: ts[i].tardiness() is 2), and QPA's
#    first violation on one CPU is at 3 ms (tests/sim.py: time_of_first_miss
#    on one CPU is 3).
#  - kernel_doc_density.json, sched-deadline.rst §3.2: the density test
#    fails (1.1) while the exact test (QPA) accepts; the utilisation test
#    (0.6) proves nothing with D < T, so it gives no verdict.
#  - constrained_miss.json, derived by hand in the file: U = 0.069 on one
#    CPU, yet EDF misses by 1.36 ms at 38.49 ms; QPA names that deadline,
#    the tardiness row claims no bound (D < T) and the simulation shows the
#    miss.
string(REPLACE "|" ";" emulator "${EMULATOR}")

function(analyze file out)
  execute_process(COMMAND ${emulator} ${DLSIM} analyze ${DIR}/${file} --json
    OUTPUT_VARIABLE json ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "dlsim analyze ${file} --json exited with ${rc}\n${err}")
  endif()
  set(${out} "${json}" PARENT_SCOPE)
endfunction()

# expect(JSON TEST VERDICT [VALUE]): the row named TEST has VERDICT (and VALUE).
function(expect json test verdict)
  if(CMAKE_VERSION VERSION_LESS 3.19)  # no string(JSON): match the row's text
    set(row "{\"test\": \"${test}\", \"verdict\": \"${verdict}\"")
    if(ARGC GREATER 3)
      set(row "${row}, \"value\": ${ARGV3},")
    endif()
    string(FIND "${json}" "${row}" at)
    if(at LESS 0)
      message(FATAL_ERROR "no row '${row}' in:\n${json}")
    endif()
    return()
  endif()
  string(JSON n LENGTH "${json}" tests)
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    string(JSON name GET "${json}" tests ${i} test)
    if(name STREQUAL test)
      string(JSON got GET "${json}" tests ${i} verdict)
      string(JSON value GET "${json}" tests ${i} value)
      if(NOT got STREQUAL verdict OR (ARGC GREATER 3 AND NOT value EQUAL ARGV3))
        message(FATAL_ERROR "${test}: ${got} ${value}, want ${verdict} ${ARGV3}")
      endif()
      return()
    endif()
  endforeach()
  message(FATAL_ERROR "no test '${test}' in:\n${json}")
endfunction()

analyze(schedcat_readme.json readme)
foreach(t gfb bak bcl rta)
  expect("${readme}" ${t} "not shown")
endforeach()
expect("${readme}" tardiness bound 2000000)
expect("${readme}" "qpa (1 CPU)" "not schedulable" 3000000)

analyze(kernel_doc_density.json kdoc)
expect("${kdoc}" density "not shown")
expect("${kdoc}" utilisation "no verdict")
expect("${kdoc}" "qpa (1 CPU)" schedulable)

analyze(constrained_miss.json cmiss)
expect("${cmiss}" tardiness "no verdict")
expect("${cmiss}" utilisation "no verdict")
expect("${cmiss}" "qpa (1 CPU)" "not schedulable" 38490000)
if(NOT cmiss MATCHES "\"no bound \\(D < T for short\\)")
  message(FATAL_ERROR "tardiness reason:\n${cmiss}")
endif()
foreach(t gfb bak bcl rta)
  expect("${cmiss}" ${t} "not shown")
endforeach()
execute_process(COMMAND ${emulator} ${DLSIM} ${DIR}/constrained_miss.json --quiet
                        --jobs ${WORKDIR}/constrained_miss.csv
  RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "dlsim constrained_miss.json exited with ${rc}\n${err}")
endif()
file(READ ${WORKDIR}/constrained_miss.csv jobs)
if(NOT jobs MATCHES "\n\"long\",0,0,3310000,39850000,38490000,")
  message(FATAL_ERROR "the first job of long should end at 39.85 ms, deadline 38.49 ms:\n${jobs}")
endif()
