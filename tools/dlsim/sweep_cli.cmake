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
             "--util;0.5:1:1e-9;--util 0.5:1:1e-9: 500000000 steps, at most 100000"
             "--horizon;1e15;--horizon: expected a time in ms from 0.001 to 1e9"
             "--fit;bestfit;--fit: expected ff (first fit in task order) or ffd"
             "--bin;0.1;--bin applies to --dir only"
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
execute_process(COMMAND ${emulator} ${DLSIM} sweep --dir ${WORKDIR} --tasks 4
  OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 64 OR NOT err MATCHES "--tasks shapes generated sets; --dir takes its sets from the files")
  message(FATAL_ERROR "--tasks with --dir: exit ${rc}\n${err}")
endif()
execute_process(COMMAND ${emulator} ${DLSIM} sweep --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT help MATCHES "usage: dlsim sweep")
  message(FATAL_ERROR "dlsim sweep --help: exit ${rc}\n${help}")
endif()

# --dir with --cpus: files without a platform section run on that many
# CPUs, as `dlsim FILE --cpus` runs them. Four 5/10 ms tasks (U = 2,
# tools/dlsim/tests/cli/half_four.json) are refused on one CPU, said out loud;
# on four CPUs each has a CPU of its own and none misses. A file whose
# platform section gives the count refuses --cpus (as dlsim FILE does).
set(cli ${CMAKE_CURRENT_LIST_DIR}/tests/cli)
file(REMOVE_RECURSE ${WORKDIR}/sweep_cpus)
file(MAKE_DIRECTORY ${WORKDIR}/sweep_cpus)
file(COPY ${cli}/half_four.json DESTINATION ${WORKDIR}/sweep_cpus)
execute_process(COMMAND ${emulator} ${DLSIM} sweep --dir ${WORKDIR}/sweep_cpus --no-progress
  OUTPUT_VARIABLE out1 ERROR_VARIABLE err1 RESULT_VARIABLE rc1)
execute_process(COMMAND ${emulator} ${DLSIM} sweep --dir ${WORKDIR}/sweep_cpus --cpus 4 --no-progress
  OUTPUT_VARIABLE out4 ERROR_VARIABLE err4 RESULT_VARIABLE rc4)
if(NOT rc1 EQUAL 0 OR NOT out1 MATCHES "\n +2.000 +1 +0 +0.000\n"
   OR NOT err1 MATCHES "1 of 1 files refused by admission control .each said why above., counted as not schedulable"
   OR NOT rc4 EQUAL 0 OR NOT out4 MATCHES "\n +2.000 +1 +1 +1.000\n" OR NOT err4 STREQUAL "")
  message(FATAL_ERROR "--dir on 1 and 4 CPUs: exit ${rc1} and ${rc4}\n${out1}${err1}\n${out4}${err4}")
endif()
file(COPY ${cli}/admission_off.json DESTINATION ${WORKDIR}/sweep_cpus)
execute_process(COMMAND ${emulator} ${DLSIM} sweep --dir ${WORKDIR}/sweep_cpus --cpus 4 --no-progress
  OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 65 OR NOT err MATCHES "admission_off.json:3:14: error: --cpus 4: this platform section gives 4 CPUs")
  message(FATAL_ERROR "--dir --cpus with a platform section: exit ${rc}\n${err}")
endif()

# --save into a directory that is not there: exit 73 with the reason,
# before anything runs, and no file anywhere (not the CSV either).
file(REMOVE ${WORKDIR}/save_missing.csv)
execute_process(COMMAND ${emulator} ${DLSIM} sweep --tasks 4 --util 0.5 --sets 2 --no-progress
                        --save ${WORKDIR}/no-such-dir --csv ${WORKDIR}/save_missing.csv
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
file(GLOB left ${WORKDIR}/save_missing.csv* ${WORKDIR}/no-such-dir*)
if(NOT rc EQUAL 73 OR NOT err MATCHES "^dlsim sweep: --save [^\n]*no-such-dir: No such file or directory\n$"
   OR NOT out STREQUAL "" OR left)
  message(FATAL_ERROR "--save into a missing directory: exit ${rc}, files '${left}'\n${out}${err}")
endif()
execute_process(COMMAND ${emulator} ${DLSIM} sweep --tasks 4 --util 0.5 --sets 2 --no-progress
                        --save ${WORKDIR}/sweep_j1.csv
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 73 OR NOT err MATCHES "--save [^\n]*sweep_j1.csv: Not a directory\n$")
  message(FATAL_ERROR "--save into a file: exit ${rc}\n${out}${err}")
endif()
# A save that fails on the way (a directory where the second set's file
# goes): exit 73 with the path and the reason, the sweep stops there, and
# every file in the directory is a whole set (no empty or temporary ones).
file(REMOVE_RECURSE ${WORKDIR}/save_fail)
file(MAKE_DIRECTORY ${WORKDIR}/save_fail/set-0000-000001.json)
execute_process(COMMAND ${emulator} ${DLSIM} sweep --tasks 4 --util 0.5,0.6 --sets 50 --jobs 1
                        --horizon 50 --no-progress --save ${WORKDIR}/save_fail
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
file(GLOB saved RELATIVE ${WORKDIR}/save_fail ${WORKDIR}/save_fail/*)
list(SORT saved)
if(NOT rc EQUAL 73 OR NOT err MATCHES "cannot write [^\n]*set-0000-000001.json: Is a directory"
   OR NOT saved STREQUAL "set-0000-000000.json;set-0000-000001.json"
   OR NOT out MATCHES "partial\n +0.500 +1 +1 +1.000 +yes\n")
  message(FATAL_ERROR "a save failing mid-sweep: exit ${rc}, files '${saved}'\n${out}${err}")
endif()
file(SIZE ${WORKDIR}/save_fail/set-0000-000000.json size)
if(size LESS 200)
  message(FATAL_ERROR "set-0000-000000.json has ${size} bytes")
endif()

# Partitioned packing, the same on both sides: --fit names it in the
# header, ff and ffd are tests of their own, and --check-analysis checks
# each accepted partition CPU by CPU. With implicit deadlines a CPU's set
# is schedulable exactly when its utilisation is at most 1 (Liu & Layland
# 1973), so the simulated ratio under --fit F equals test F's column; the
# two fits differ on these sets (first-fit decreasing packs more).
foreach(fit ff ffd)
  execute_process(COMMAND ${emulator} ${DLSIM} sweep --cpus 4 --tasks 10 --util 3.25,3.5,3.75
                          --sets 20 --horizon 200 --mode partitioned --fit ${fit} --tests ff,ffd
                          --check-analysis --no-progress --csv ${WORKDIR}/sweep_fit_${fit}.csv
    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(fit STREQUAL "ff")
    set(want "partitioned, first fit in task order")
  else()
    set(want "partitioned, first-fit decreasing")
  endif()
  if(NOT rc EQUAL 0 OR NOT out MATCHES "^dlsim sweep: 4 CPUs .${want}.,"
     OR NOT out MATCHES "ratio +ff +ffd\n" OR NOT out MATCHES "disagree on 0 sets")
    message(FATAL_ERROR "--fit ${fit}: exit ${rc}\n${out}${err}")
  endif()
  file(STRINGS ${WORKDIR}/sweep_fit_${fit}.csv rows)
  list(REMOVE_AT rows 0)
  set(ratios_${fit} "")
  foreach(r ${rows})
    string(REPLACE "," ";" f "${r}")
    list(GET f 3 ratio)
    list(GET f 4 ff)
    list(GET f 5 ffd)
    if(NOT ratio STREQUAL "${${fit}}")
      message(FATAL_ERROR "--fit ${fit}: simulated ratio ${ratio}, test ${fit} ${${fit}}\n${out}")
    endif()
    list(APPEND ratios_${fit} ${ratio})
  endforeach()
endforeach()
if(ratios_ff STREQUAL ratios_ffd)
  message(FATAL_ERROR "--fit ff and ffd simulate the same ratios: ${ratios_ff}")
endif()

# --guest: each set inside one server on CPU 0 with the budget theta_min of
# the periodic resource model. Implicit-deadline sets with U <= 1 are
# schedulable by EDF on a whole CPU (Liu & Layland 1973), so a budget up
# to the period passes (Theta = Pi supplies sbf(t) = t) and prm accepts
# every set; the server alone on the host meets its deadlines, so by Shin
# & Lee (RTSS 2003, Theorem 1) no task inside misses: ratio 1 and no
# disagreement. The same bytes with 1 and 2 jobs.
set(gargs sweep --guest 5 --tasks 4 --util 0.1,0.2,0.3 --sets 20 --horizon 200
          --check-analysis --no-progress)
foreach(j 1 2)
  execute_process(COMMAND ${emulator} ${DLSIM} ${gargs} --jobs ${j} --csv ${WORKDIR}/guest_j${j}.csv
    OUTPUT_VARIABLE gout_${j} ERROR_VARIABLE err RESULT_VARIABLE rc)
  file(READ ${WORKDIR}/guest_j${j}.csv gcsv_${j})
  if(NOT rc EQUAL 0 OR NOT gout_${j} MATCHES "each set inside one server on CPU 0, period = deadline 5 ms"
     OR NOT gout_${j} MATCHES "analysis and simulation disagree on 0 sets"
     OR NOT gout_${j} MATCHES "0 of 60 sets not admitted"
     OR NOT gcsv_${j} STREQUAL "utilisation,sets,schedulable,ratio,prm\n0.1,20,20,1,1\n0.2,20,20,1,1\n0.3,20,20,1,1\n")
    message(FATAL_ERROR "sweep --guest --jobs ${j}: exit ${rc}\n${gout_${j}}\n${gcsv_${j}}\n${err}")
  endif()
endforeach()
if(NOT gout_1 STREQUAL gout_2)
  message(FATAL_ERROR "sweep --guest: --jobs 1 and 2 differ\n${gout_1}\n${gout_2}")
endif()

# A fixed 10/20 ms server: above U = 0.5 the guest's admission refuses a
# task (a guest admits at most its server's bandwidth), said and counted
# as not schedulable. The saved sets carry the servers section, and
# `sweep --dir` on them gives the same rows (without the prm column).
file(REMOVE_RECURSE ${WORKDIR}/guest_sets)
file(MAKE_DIRECTORY ${WORKDIR}/guest_sets)
execute_process(COMMAND ${emulator} ${DLSIM} sweep --guest 20:10 --tasks 4 --util 0.3,0.6 --sets 10
                        --horizon 400 --check-analysis --no-progress --save ${WORKDIR}/guest_sets
                        --csv ${WORKDIR}/guest_fixed.csv
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
file(READ ${WORKDIR}/guest_fixed.csv csv)
if(NOT rc EQUAL 0 OR NOT out MATCHES "budget 10 ms every 20 ms"
   OR NOT err MATCHES "10 of 20 sets not admitted" OR NOT csv MATCHES "\n0.6,10,0,0,0\n$")
  message(FATAL_ERROR "sweep --guest 20:10: exit ${rc}\n${out}\n${csv}\n${err}")
endif()
file(READ ${WORKDIR}/guest_sets/set-0000-000000.json saved)
if(NOT saved MATCHES "\"servers\": {\n\t\t\"guest\": { \"runtime\": 10000, \"deadline\": 20000, \"period\": 20000, \"cpus\": \\[0\\]")
  message(FATAL_ERROR "no servers section in the saved set:\n${saved}")
endif()
execute_process(COMMAND ${emulator} ${DLSIM} sweep --dir ${WORKDIR}/guest_sets --bin 0.3 --no-progress
                        --csv ${WORKDIR}/guest_dir.csv
  OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
file(READ ${WORKDIR}/guest_dir.csv dcsv)
string(REGEX REPLACE ",[0-9.]+\n" "\n" csv4 "${csv}")
string(REPLACE "utilisation,sets,schedulable,ratio,prm" "utilisation,sets,schedulable,ratio" csv4 "${csv4}")
if(NOT rc EQUAL 0 OR NOT dcsv STREQUAL csv4 OR NOT err MATCHES "10 of 20 files refused by admission control")
  message(FATAL_ERROR "--dir of the saved guest sets: exit ${rc}\n${dcsv}\nwant\n${csv4}\n${err}")
endif()

# --guest refused by name: with more than one CPU, with --dir, bad values;
# prm without a server.
foreach(case "--guest;5;--cpus;2;--guest puts each set in one server on CPU 0: --cpus 2 is refused"
             "--guest;0.05;NONE;NONE;--guest: expected PERIOD[:BUDGET] in ms"
             "--guest;5:6;NONE;NONE;--guest: expected PERIOD[:BUDGET] in ms"
             "--guest;5:x;NONE;NONE;--guest: expected PERIOD[:BUDGET] in ms"
             "--guest;1.0005;NONE;NONE;--guest: expected PERIOD[:BUDGET] in ms"
             "--guest;5:0;NONE;NONE;--guest: expected PERIOD[:BUDGET] in ms"
             "--tests;prm;NONE;NONE;--tests prm needs --guest MS"
             "--guest;5;--dir;${WORKDIR};--guest shapes generated sets; --dir takes its sets from the files")
  list(GET case 0 o1)
  list(GET case 1 v1)
  list(GET case 2 o2)
  list(GET case 3 v2)
  list(GET case 4 want)
  set(cmd ${DLSIM} sweep ${o1} ${v1})
  if(NOT o2 STREQUAL "NONE")
    list(APPEND cmd ${o2} ${v2})
  endif()
  execute_process(COMMAND ${emulator} ${cmd} OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
  string(FIND "${err}" "${want}" pos)
  if(NOT rc EQUAL 64 OR pos LESS 0)
    message(FATAL_ERROR "${cmd}: exit ${rc}, want 64 and \"${want}\"; stderr:\n${err}")
  endif()
endforeach()

# dlsim FILE's progress bar (drawn only on a terminal: script(1) gives it
# one) shows the time left once the run has taken a second.
find_program(SCRIPT script)
find_program(TIMEOUT timeout)
if(SCRIPT AND TIMEOUT AND CMAKE_HOST_SYSTEM_NAME STREQUAL "Linux")
  string(REPLACE ";" " " run "${emulator} ${DLSIM} ${cli}/long_run.json --quiet")
  execute_process(COMMAND ${SCRIPT} -q -c "${TIMEOUT} -s INT 3 ${run}" /dev/null
    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT out MATCHES "dlsim \\[#* *\\] +[0-9]+%  [0-9.]+ of 2000.000 s, ETA [0-9]+:[0-9][0-9]")
    message(FATAL_ERROR "no time left in dlsim's progress bar (exit ${rc}):\n${out}${err}")
  endif()
else()
  message(STATUS "no script(1) or timeout(1): dlsim's progress bar is not checked")
endif()

# SIGINT stops a long sweep between sets: the sets that ran are printed
# and written, rows marked partial, exit 130; the progress bar (forced on
# with --progress) gave the time left on the way. The signal is sent once
# the bar shows a time left (a set has run), however slow the machine: a
# shell runs dlsim in the background and polls its stderr (60 s at most).
# Whenever a signal comes, no temporary file "NAME.PID.tmp" is left:
# one at once (before or while the files are opened: the handler is
# installed first) and a second one (which ends the process) remove it.
find_program(SH sh)
if(NOT SH OR NOT CMAKE_HOST_SYSTEM_NAME STREQUAL "Linux")
  message(STATUS "no sh(1): the interrupted sweep is not checked")
  return()
endif()
# Under a cross build's emulator the signal goes to qemu-user: checked
# natively only.
if(emulator)
  message(STATUS "under an emulator (${emulator}): the interrupted sweep is checked natively only")
  return()
endif()
set(interrupt [=[
mode=$1; err=$2; shift 2
: >"$err"
"$@" 2>"$err" &
pid=$!
n=0
while [ "$mode" != now ] && [ $n -lt 600 ] && kill -0 $pid 2>/dev/null &&
      ! grep -q ETA "$err"; do
  sleep 0.1; n=$((n + 1))
done
kill -INT $pid
if [ "$mode" = twice ]; then sleep 0.01; kill -INT $pid 2>/dev/null; fi
wait $pid
]=])
# The second signal comes while sets still run: sets of 100 s simulated
# take tens of ms each, longer than the 10 ms between the signals.
foreach(mode once now twice)
  set(csv_path ${WORKDIR}/sweep_int_${mode}.csv)
  set(horizon 1000)
  if(mode STREQUAL "twice")
    set(horizon 100000)
  endif()
  file(GLOB stale ${csv_path} ${csv_path}.*)
  if(stale)
    file(REMOVE ${stale})
  endif()
  # each set saved too: a set's temporary file, named before it exists,
  # goes at a second signal as the outputs' do
  set(save_dir ${WORKDIR}/sweep_int_${mode}_sets)
  file(REMOVE_RECURSE ${save_dir})
  file(MAKE_DIRECTORY ${save_dir})
  execute_process(COMMAND ${SH} -c "${interrupt}" sh ${mode} ${WORKDIR}/sweep_int_${mode}.err
                          ${DLSIM} sweep --cpus 2 --tasks 8 --util 0.1:2:0.001 --sets 50
                          --horizon ${horizon} --jobs 2 --progress --csv ${csv_path}
                          --save ${save_dir}
    OUTPUT_VARIABLE out RESULT_VARIABLE rc TIMEOUT 120)
  file(READ ${WORKDIR}/sweep_int_${mode}.err err)
  set(csv "(no CSV written)")
  if(EXISTS ${csv_path})
    file(READ ${csv_path} csv)
  endif()
  file(GLOB left ${csv_path}.* ${save_dir}/*.tmp)
  # sh says 130 for exit 130 and for death by SIGINT alike
  if(NOT rc EQUAL 130 OR left)
    message(FATAL_ERROR "sweep stopped by SIGINT (${mode}): exit ${rc}, left ${left}\n"
                        "${out}\n${csv}\n${err}")
  endif()
  if(mode STREQUAL "once" AND (
     NOT out MATCHES "\ndlsim sweep: interrupted by SIGINT after [1-9][0-9]* of 95050 sets"
     OR NOT csv MATCHES "^utilisation,sets,schedulable,ratio,partial\n0.1,[0-9]+,[0-9]+,[0-9.]+,[01]\n"
     OR NOT err MATCHES "ETA [0-9]+:[0-9][0-9]"))
    message(FATAL_ERROR "sweep stopped by SIGINT: exit ${rc}\n${out}\n${csv}\n${err}")
  endif()
  # a CSV written at all is whole: its header, rows ending in the partial
  # mark (the rows of sets that ran)
  if(EXISTS ${csv_path} AND NOT csv MATCHES "^utilisation,sets,schedulable,ratio,partial\n(.*,[01]\n)?$")
    message(FATAL_ERROR "sweep stopped by SIGINT (${mode}): a partial CSV\n${csv}")
  endif()
endforeach()
