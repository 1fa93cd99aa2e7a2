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
    "admission +admitted +bandwidth 1.1434"
    "utilisation +no verdict +sum of C/T = 1.1434 <= 2 is necessary only"
    "density +no verdict +sum of C/D = 1.1434: a one-CPU test"
    "qpa \\(1 CPU\\) +not schedulable +demand 1200000 ns > supply at t = 1060000 ns \\(deadline of heavy\\)"
    "gfb +not shown +cannot show heavy"
    "bak +not shown"
    "bcl +not shown"
    "rta +not shown +bound of heavy"
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

# Mixed capacities add the uniform-CPU row (Funk, Goossens & Baruah): the
# set pinned in test_dlsim_sweep, 1.1373 <= 1.1875; identical CPUs do not.
# The identical-CPU tests give no verdict there, and say why.
file(WRITE ${WORKDIR}/analyze_uniform.json [=[
{
	"platform": { "cpus": 2, "capacity": [ 960, 256 ] },
	"simulation": { "horizon_us": 60000 },
	"tasks": {
		"t0": { "policy": "SCHED_DEADLINE", "dl-runtime": 9510, "dl-period": 20000,
			"run": 9510, "timer": { "ref": "t0", "period": 20000 } },
		"t1": { "policy": "SCHED_DEADLINE", "dl-runtime": 862, "dl-period": 40000,
			"run": 862, "timer": { "ref": "t1", "period": 40000 } },
		"t2": { "policy": "SCHED_DEADLINE", "dl-runtime": 10110, "dl-period": 20000,
			"run": 10110, "timer": { "ref": "t2", "period": 20000 } }
	}
}
]=])
execute_process(COMMAND ${emulator} ${DLSIM} analyze ${WORKDIR}/analyze_uniform.json
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT out MATCHES "admission and uniform use them"
   OR NOT out MATCHES "uniform +schedulable +sum u \\+ lambda u_max = 1.1373 <= total speed 1.1875"
   OR NOT out MATCHES "gfb +no verdict +assumes identical full-speed CPUs; CPU 0 has capacity 960 of 1024"
   OR NOT out MATCHES "tardiness +no verdict +assumes identical"
   OR NOT out MATCHES "ffd \\(density\\) +no verdict +assumes identical")
  message(FATAL_ERROR "analyze on mixed capacities: exit ${rc}\n${out}\n${err}")
endif()
if(json MATCHES "uniform")
  message(FATAL_ERROR "uniform row on identical CPUs:\n${json}")
endif()

execute_process(COMMAND ${emulator} ${DLSIM} analyze RESULT_VARIABLE rc ERROR_VARIABLE err)
# (no FILE: the reason, then the usage)
if(NOT rc EQUAL 64 OR NOT err MATCHES "usage: dlsim analyze")
  message(FATAL_ERROR "no FILE: exit ${rc}, '${err}'")
endif()
execute_process(COMMAND ${emulator} ${DLSIM} analyze ${WORKDIR}/no-such.json
  RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 66 OR NOT err MATCHES "cannot read")
  message(FATAL_ERROR "missing file: exit ${rc}, '${err}'")
endif()

# `dlsim sweep --tests ... --check-analysis`: one acceptance column per test
# in the CSV and the table, one curve per test in the SVG, no disagreement,
# and clear errors for an unknown test or --tests with --dir.
execute_process(COMMAND ${emulator} ${DLSIM} sweep --cpus 2 --tasks 5 --util 0.5,1,1.5
                        --sets 6 --horizon 200 --deadlines constrained --no-progress
                        --tests qpa,gfb,bak,bcl,rta,ff,ffd --check-analysis --jobs 2
                        --csv ${WORKDIR}/analysis.csv --svg ${WORKDIR}/analysis.svg
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT out MATCHES "ratio +qpa +gfb +bak +bcl +rta +ff +ffd\n"
   OR NOT out MATCHES "analysis and simulation disagree on 0 sets")
  message(FATAL_ERROR "sweep --tests --check-analysis: exit ${rc}\n${out}\n${err}")
endif()
file(READ ${WORKDIR}/analysis.csv csv)
if(NOT csv MATCHES "^utilisation,sets,schedulable,ratio,qpa,gfb,bak,bcl,rta,ff,ffd\n(0.5|1|1.5),6(,[0-9.]+)+\n")
  message(FATAL_ERROR "unexpected CSV:\n${csv}")
endif()
string(REGEX MATCHALL "\n[^,\n]+(,[^,\n]+)*" rows "\n${csv}")
foreach(r ${rows})
  string(REGEX MATCHALL "," commas "${r}")
  list(LENGTH commas nc)
  if(NOT nc EQUAL 10)
    message(FATAL_ERROR "row '${r}' has ${nc} commas, not 10")
  endif()
endforeach()
file(READ ${WORKDIR}/analysis.svg svg)
string(REGEX MATCHALL "<polyline" curves "${svg}")
list(LENGTH curves ncurves)
if(NOT ncurves EQUAL 8)
  message(FATAL_ERROR "${ncurves} curves in the SVG, want 8 (simulated + 7 tests)")
endif()
# The legend is a box that covers no plotted point (a circle of radius 3,
# or a vertex of any curve) and holds its eight labels.
if(NOT svg MATCHES "<rect class=\"legend\" x=\"([0-9.]+)\" y=\"([0-9.]+)\" width=\"([0-9.]+)\" height=\"([0-9.]+)\"")
  message(FATAL_ERROR "no legend box in the SVG:\n${svg}")
endif()
math(EXPR lx0 "${CMAKE_MATCH_1} - 3")
math(EXPR ly0 "${CMAKE_MATCH_2} - 3")
math(EXPR lx1 "${CMAKE_MATCH_1} + ${CMAKE_MATCH_3} + 3")
math(EXPR ly1 "${CMAKE_MATCH_2} + ${CMAKE_MATCH_4} + 3")
string(REGEX MATCHALL "points=\"[^\"]*\"|cx=\"[0-9.]+\" cy=\"[0-9.]+\"" marks "${svg}")
set(npoints 0)
foreach(m ${marks})
  string(REGEX MATCHALL "[0-9.]+" xy "${m}")
  list(LENGTH xy nxy)
  math(EXPR last "${nxy} - 1")
  foreach(k RANGE 0 ${last} 2)
    math(EXPR k1 "${k} + 1")
    list(GET xy ${k} x)
    list(GET xy ${k1} y)
    string(REGEX REPLACE "\\..*" "" x "${x}")
    string(REGEX REPLACE "\\..*" "" y "${y}")
    math(EXPR npoints "${npoints} + 1")
    if(x GREATER_EQUAL lx0 AND x LESS_EQUAL lx1 AND y GREATER_EQUAL ly0 AND y LESS_EQUAL ly1)
      message(FATAL_ERROR "the plotted point ${x},${y} is under the legend box ${lx0},${ly0} - ${lx1},${ly1}")
    endif()
  endforeach()
endforeach()
string(REGEX MATCH "<g class=\"legend\">.*</g>" legend "${svg}")
string(REGEX MATCHALL "<text x=\"([0-9.]+)\" y=\"([0-9.]+)\"" labels "${legend}")
list(LENGTH labels nlabels)
if(npoints LESS 24 OR NOT nlabels EQUAL 8)
  message(FATAL_ERROR "${npoints} points checked, ${nlabels} legend labels (want 8)")
endif()
foreach(l ${labels})
  string(REGEX MATCHALL "[0-9.]+" xy "${l}")
  list(GET xy 0 x)
  list(GET xy 1 y)
  if(x LESS lx0 OR x GREATER lx1 OR y LESS ly0 OR y GREATER ly1)
    message(FATAL_ERROR "legend label at ${x},${y} outside its box")
  endif()
endforeach()
execute_process(COMMAND ${emulator} ${DLSIM} sweep --tests qpa,nope
  RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 64 OR NOT err MATCHES "--tests: expected a comma list")
  message(FATAL_ERROR "unknown test: exit ${rc}, '${err}'")
endif()
execute_process(COMMAND ${emulator} ${DLSIM} sweep --dir ${WORKDIR} --tests qpa
  RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 64 OR NOT err MATCHES "--tests needs generated sets")
  message(FATAL_ERROR "--tests with --dir: exit ${rc}, '${err}'")
endif()
