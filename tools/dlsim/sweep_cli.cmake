# A small `dlsim sweep` through the command line: the same bytes on stdout
# and in the CSV with 1 and 2 jobs, the known ends of the curve (U = 0.5 on
# 2 CPUs always schedulable, U = 3 never), an SVG written, and clear errors
# for bad arguments. EMULATOR (cross builds) has '|' between its words.
string(REPLACE "|" ";" emulator "${EMULATOR}")
set(args sweep --cpus 2 --tasks 6 --util 0.5,1,1.5,3 --sets 8 --horizon 200
         --deadlines constrained --no-progress)
foreach(j 1 2)
  execute_process(COMMAND ${emulator} ${DLSIM} ${args} --jobs ${j}
                          --csv ${WORKDIR}/sweep_j${j}.csv --svg ${WORKDIR}/sweep_j${j}.svg
    OUTPUT_VARIABLE out_${j} ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "dlsim sweep --jobs ${j} exited with ${rc}\n${err}")
  endif()
  file(READ ${WORKDIR}/sweep_j${j}.csv csv_${j})
  file(READ ${WORKDIR}/sweep_j${j}.svg svg)
  if(NOT svg MATCHES "^<svg .*<polyline.*</svg>\n$")
    message(FATAL_ERROR "not an SVG plot:\n${svg}")
  endif()
endforeach()
if(NOT out_1 STREQUAL out_2 OR NOT csv_1 STREQUAL csv_2)
  message(FATAL_ERROR "--jobs 1 and --jobs 2 differ\n${out_1}\n${out_2}\n${csv_1}\n${csv_2}")
endif()
if(NOT csv_1 MATCHES "^utilisation,sets,schedulable,ratio\n0.5,8,8,1\n1,8,[0-8],[0-9.]+\n1.5,8,[0-8],[0-9.]+\n3,8,0,0\n$")
  message(FATAL_ERROR "unexpected CSV:\n${csv_1}")
endif()
if(NOT out_1 MATCHES "utilisation +sets +schedulable +ratio\n +0.500 +8 +8 +1.000\n")
  message(FATAL_ERROR "unexpected table:\n${out_1}")
endif()

# --save writes every set as a workload file; --dir reads them back and
# gives the same rows (no set lies between the 95% and 100% admission limits).
file(REMOVE_RECURSE ${WORKDIR}/sweep_sets)
file(MAKE_DIRECTORY ${WORKDIR}/sweep_sets)
execute_process(COMMAND ${emulator} ${DLSIM} ${args} --jobs 2 --save ${WORKDIR}/sweep_sets
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT out STREQUAL out_1)
  message(FATAL_ERROR "dlsim sweep --save exited with ${rc} or printed another table\n${out}\n${err}")
endif()
file(GLOB saved ${WORKDIR}/sweep_sets/*.json)
list(LENGTH saved nsaved)
if(NOT nsaved EQUAL 32)
  message(FATAL_ERROR "--save wrote ${nsaved} files, want 32")
endif()
execute_process(COMMAND ${emulator} ${DLSIM} sweep --dir ${WORKDIR}/sweep_sets --bin 0.5
                        --jobs 2 --no-progress --csv ${WORKDIR}/sweep_dir.csv
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
file(READ ${WORKDIR}/sweep_dir.csv csv_dir)
if(NOT rc EQUAL 0 OR NOT csv_dir STREQUAL csv_1)
  message(FATAL_ERROR "--dir of the saved sets: exit ${rc}\n${csv_dir}\nwant\n${csv_1}\n${err}")
endif()

# Between the library's default 95% and the sweep's 100% admission limit:
# on one CPU EDF schedules implicit-deadline sets up to U = 1 (Liu &
# Layland 1973), and the saved files carry "admission": 100, so --dir
# counts every set at U = 0.97 schedulable as the sweep does.
file(REMOVE_RECURSE ${WORKDIR}/sweep_sets97)
file(MAKE_DIRECTORY ${WORKDIR}/sweep_sets97)
execute_process(COMMAND ${emulator} ${DLSIM} sweep --tasks 4 --util 0.97 --sets 4 --horizon 200
                        --no-progress --save ${WORKDIR}/sweep_sets97 --csv ${WORKDIR}/sweep97.csv
  OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
file(READ ${WORKDIR}/sweep97.csv csv97)
execute_process(COMMAND ${emulator} ${DLSIM} sweep --dir ${WORKDIR}/sweep_sets97 --no-progress
                        --csv ${WORKDIR}/sweep97_dir.csv
  OUTPUT_QUIET ERROR_VARIABLE err2 RESULT_VARIABLE rc2)
file(READ ${WORKDIR}/sweep97_dir.csv csv97_dir)
if(NOT rc EQUAL 0 OR NOT rc2 EQUAL 0 OR NOT csv97 MATCHES "\n0.97,4,4,1\n"
   OR NOT csv97_dir MATCHES ",4,4,1\n")
  message(FATAL_ERROR "sweep and --dir at U = 0.97 disagree:\n${csv97}\n${csv97_dir}\n${err}${err2}")
endif()

# Bad arguments: exit status 64 and a message naming the option.
foreach(case "--cpus;0;--cpus: expected a CPU count"
             "--tasks;x;--tasks: expected a task count"
             "--util;2:1:0.5;--util: expected A:B:S"
             "--gen;foo;--gen: expected randfixedsum or uunifast"
             "--periods;50:10;--periods: expected MIN:MAX"
             "--tasks;2;utilisation 3 needs more than --tasks 2"
             "--bogus;1;unknown option --bogus"
             "--jobs;NONE;--jobs needs a value")
  list(GET case 0 opt)
  list(GET case 1 val)
  list(GET case 2 want)
  if(opt STREQUAL "--tasks" AND val STREQUAL "2")
    set(cmd ${DLSIM} sweep --util 3 --tasks 2)
  elseif(val STREQUAL "NONE")
    set(cmd ${DLSIM} sweep ${opt})
  else()
    set(cmd ${DLSIM} sweep ${opt} ${val})
  endif()
  execute_process(COMMAND ${emulator} ${cmd} OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
  string(FIND "${err}" "${want}" pos)
  if(NOT rc EQUAL 64 OR pos LESS 0)
    message(FATAL_ERROR "${cmd}: exit ${rc}, want 64 and \"${want}\"; stderr:\n${err}")
  endif()
endforeach()
execute_process(COMMAND ${emulator} ${DLSIM} sweep --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT help MATCHES "usage: dlsim sweep")
  message(FATAL_ERROR "dlsim sweep --help: exit ${rc}\n${help}")
endif()
