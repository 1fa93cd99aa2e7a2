# The "servers" section through the command line (docs/dlsim-researchers.md,
# "Servers"): every refusal by name with its position, a run, --dump, and
# dlsim analyze's verdicts on hand-derived cases.
# Each file is the template below with one server line (line 11, two tabs
# in: a server's key is at column 3) and, for some, one more task (line 9,
# which moves the server line to 12).
string(REPLACE "|" ";" emulator "${EMULATOR}")
set(dir ${WORKDIR}/servers_cli)
file(REMOVE_RECURSE ${dir})
file(MAKE_DIRECTORY ${dir})

set(template [=[
{
	"platform": { "cpus": 2 },
	"tasks": {
		"a": { "policy": "SCHED_DEADLINE", "dl-runtime": 1000, "dl-period": 10000,
		       "run": 1000, "timer": { "ref": "a", "period": 10000 } },
		"b": { "policy": "SCHED_DEADLINE", "dl-runtime": 2000, "dl-period": 20000,
		       "run": 2000, "timer": { "ref": "b", "period": 20000 } },
		"f": { "run": 100, "sleep": 1000 }@EXTRA@
	},
	"servers": {
		@SERVER@
	}
}
]=])

# ${dir}/NAME.json from the template.
function(servers_file name server extra)
  set(SERVER "${server}")
  set(EXTRA "")
  if(extra)
    set(EXTRA ",\n\t\t${extra}")
  endif()
  string(CONFIGURE "${template}" text @ONLY)
  # the template's first line is the bracket's own newline
  string(REGEX REPLACE "^\n" "" text "${text}")
  file(WRITE ${dir}/${name}.json "${text}")
endfunction()

# dlsim ARGS on ${dir}/NAME.json: exit RC, stderr matching ERR (stdout OUT).
function(servers_run name rc err out)
  string(REPLACE "@" "${dir}/${name}.json" args "${ARGN}")
  execute_process(COMMAND ${emulator} ${DLSIM} ${args}
    OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE r)
  if(NOT r STREQUAL "${rc}" OR NOT e MATCHES "${err}" OR NOT o MATCHES "${out}")
    message(SEND_ERROR "${name}: dlsim ${args}: exit ${r} (want ${rc})\n"
      "stderr should match: ${err}\nstdout should match: ${out}\n"
      "--- stderr ---\n${e}\n--- stdout ---\n${o}")
  endif()
endfunction()

# A file dlsim analyze refuses: exit 65, the message at its place.
function(refused name server want)
  servers_file(${name} "${server}" "${ARGN}")
  servers_run(${name} 65 "${name}.json:${want}" "^$" analyze @)
endfunction()

set(rt "\"runtime\": 3000, \"deadline\": 10000, \"period\": 10000")
refused(unknown_key "\"vm\": { ${rt}, \"budget\": 1, \"cpus\": [0], \"tasks\": [\"a\"] }"
  "11:64: error: unknown key \"budget\" in server \"vm\" .expected runtime, period, deadline, cpus, tasks.")
refused(wrong_type "\"vm\": { \"runtime\": \"3000\", \"period\": 10000, \"cpus\": [0], \"tasks\": [\"a\"] }"
  "11:22: error: \"runtime\" must be an integer, not string")
refused(cpus_not_list "\"vm\": { ${rt}, \"cpus\": 0, \"tasks\": [\"a\"] }"
  "11:72: error: \"cpus\" must be an array, not number")
refused(no_runtime "\"vm\": { \"period\": 10000, \"cpus\": [0], \"tasks\": [\"a\"] }"
  "11:3: error: server \"vm\" needs \"runtime\"")
refused(no_period "\"vm\": { \"runtime\": 3000, \"cpus\": [0], \"tasks\": [\"a\"] }"
  "11:3: error: server \"vm\" needs \"period\"")
refused(no_cpus "\"vm\": { ${rt}, \"tasks\": [\"a\"] }"
  "11:3: error: server \"vm\" needs \"cpus\"")
refused(no_tasks "\"vm\": { ${rt}, \"cpus\": [0] }"
  "11:3: error: server \"vm\" needs \"tasks\"")
refused(runtime_gt_deadline "\"vm\": { \"runtime\": 6000, \"deadline\": 5000, \"period\": 10000, \"cpus\": [0], \"tasks\": [\"a\"] }"
  "11:3: error: server \"vm\": runtime 6000 us exceeds deadline 5000 us")
refused(runtime_gt_period "\"vm\": { \"runtime\": 12000, \"period\": 10000, \"cpus\": [0], \"tasks\": [\"a\"] }"
  "11:3: error: server \"vm\": runtime 12000 us exceeds deadline 10000 us")
refused(deadline_gt_period "\"vm\": { \"runtime\": 3000, \"deadline\": 12000, \"period\": 10000, \"cpus\": [0], \"tasks\": [\"a\"] }"
  "11:3: error: server \"vm\": deadline 12000 us exceeds period 10000 us")
refused(zero_runtime "\"vm\": { \"runtime\": 0, \"deadline\": 10000, \"period\": 10000, \"cpus\": [0], \"tasks\": [\"a\"] }"
  "11:22: error: \"runtime\" = 0 is too small .minimum 1.")
refused(zero_period "\"vm\": { \"runtime\": 3000, \"deadline\": 10000, \"period\": 0, \"cpus\": [0], \"tasks\": [\"a\"] }"
  "11:57: error: \"period\" = 0 is too small .minimum 1.")
refused(zero_deadline "\"vm\": { \"runtime\": 3000, \"deadline\": 0, \"period\": 10000, \"cpus\": [0], \"tasks\": [\"a\"] }"
  "11:40: error: \"deadline\" = 0 is too small .minimum 1.")
refused(no_such_task "\"vm\": { ${rt}, \"cpus\": [0], \"tasks\": [\"a\", \"c\"] }"
  "11:92: error: server \"vm\": no task is named \"c\" in \"tasks\"")
refused(task_not_name "\"vm\": { ${rt}, \"cpus\": [0], \"tasks\": [1] }"
  "11:87: error: server \"vm\": an entry of \"tasks\" must be a task's name .a string., not number")
refused(listed_twice "\"vm\": { ${rt}, \"cpus\": [0], \"tasks\": [\"a\", \"a\"] }"
  "11:92: error: server \"vm\": task \"a\" is listed twice")
refused(two_servers "\"vm\": { ${rt}, \"cpus\": [0], \"tasks\": [\"a\"] }, \"vm2\": { ${rt}, \"cpus\": [1], \"tasks\": [\"b\", \"a\"] }"
  "11:185: error: server \"vm2\": task \"a\" is already in server \"vm\" .11:3.; a task runs in one server")
refused(cpu_out "\"vm\": { ${rt}, \"cpus\": [0, 2], \"tasks\": [\"a\"] }"
  "11:76: error: server \"vm\": CPU 2 is not on the platform .it has 2 CPUs.")
refused(cpu_negative "\"vm\": { ${rt}, \"cpus\": [-1], \"tasks\": [\"a\"] }"
  "11:73: error: server \"vm\": a CPU in \"cpus\" must be an integer in .0, 2.")
refused(cpu_twice "\"vm\": { ${rt}, \"cpus\": [1, 1], \"tasks\": [\"a\"] }"
  "11:76: error: server \"vm\": CPU 1 is listed twice in \"cpus\" .one vCPU per host CPU.")
refused(empty_cpus "\"vm\": { ${rt}, \"cpus\": [], \"tasks\": [\"a\"] }"
  "11:72: error: server \"vm\": \"cpus\" is empty .one host CPU per vCPU.")
refused(empty_tasks "\"vm\": { ${rt}, \"cpus\": [0], \"tasks\": [] }"
  "11:86: error: server \"vm\": \"tasks\" is empty .a server runs at least one task.")
refused(not_object "\"vm\": [3000]"
  "11:9: error: \"vm\" must be an object, not array")
refused(repeated_key "\"vm\": { \"runtime\": 3000, \"runtime\": 2000, \"deadline\": 10000, \"period\": 10000, \"cpus\": [0], \"tasks\": [\"a\"] }"
  "11:28: error: server \"vm\": a second \"runtime\" .the first is at 11:11.")
refused(repeated_server "\"vm\": { ${rt}, \"cpus\": [0], \"tasks\": [\"a\"] }, \"vm\": { ${rt}, \"cpus\": [1], \"tasks\": [\"b\"] }"
  "11:95: error: a second server \"vm\" .the first is at 11:3.; give each server its own name")
# Sharing a CPU: 6000/10000 + 3001/7500 = 0.6 + 0.40013 > 1 is refused;
# 3000/7500 makes exactly 1, which fits (the exact sum, not a rounded one).
refused(shared_over "\"vm\": { \"runtime\": 6000, \"deadline\": 10000, \"period\": 10000, \"cpus\": [0], \"tasks\": [\"a\"] }, \"vm2\": { \"runtime\": 3001, \"deadline\": 7500, \"period\": 7500, \"cpus\": [1, 0], \"tasks\": [\"b\"] }"
  "11:95: error: server \"vm2\": CPU 0 is shared by servers of total bandwidth 1.0001 .runtime / period., more than the CPU")
servers_file(shared_full "\"vm\": { \"runtime\": 6000, \"deadline\": 10000, \"period\": 10000, \"cpus\": [0], \"tasks\": [\"a\"] }, \"vm2\": { \"runtime\": 3000, \"deadline\": 7500, \"period\": 7500, \"cpus\": [1, 0], \"tasks\": [\"b\"] }" "")
servers_run(shared_full 0 "^$" "vm/cpu0 on CPU 0; guest tasks: a\n.*vm2/cpu0 on CPU 0; vm2/cpu1 on CPU 1;" analyze @ --strict)
# Inside a server only deadline tasks, throughout, and no fork target.
refused(fair_task "\"vm\": { ${rt}, \"cpus\": [0], \"tasks\": [\"a\", \"f\"] }"
  "11:92: error: server \"vm\": task \"f\" is SCHED_OTHER: a task inside a server must be SCHED_DEADLINE .its dl-runtime/dl-period is its reservation inside the guest.")
refused(phase_fair "\"vm\": { ${rt}, \"cpus\": [0], \"tasks\": [\"p\"] }"
  "12:87: error: server \"vm\": task \"p\" turns SCHED_OTHER in phase \"p2\" .9:116.: a task inside a server must be SCHED_DEADLINE throughout"
  "\"p\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 500, \"dl-period\": 5000, \"phases\": { \"p1\": { \"run\": 100 }, \"p2\": { \"policy\": \"SCHED_OTHER\", \"run\": 10 } } }")
refused(forked "\"vm\": { ${rt}, \"cpus\": [0], \"tasks\": [\"a\"] }"
  "12:87: error: server \"vm\": task \"a\" is the target of a fork: forked threads inside a server are not modelled"
  "\"g\": { \"fork\": \"a\", \"sleep\": 100 }")
refused(servers_in_task "\"vm\": { ${rt}, \"cpus\": [0], \"tasks\": [\"a\"] }"
  "9:10: error: \"servers\" is a top-level section, not a task key"
  "\"g\": { \"servers\": {}, \"sleep\": 100 }")
# No "deadline": its period, said; --strict refuses the default.
servers_file(default_deadline "\"vm\": { \"runtime\": 3000, \"period\": 10000, \"cpus\": [0], \"tasks\": [\"a\"] }" "")
servers_run(default_deadline 0 "default_deadline.json:11:3: warning: server \"vm\" gives no \"deadline\": 10000 us, its period"
  "server vm: 3000/10000/10000 us" analyze @)
servers_run(default_deadline 65 "default_deadline.json:11:3: error: server \"vm\" gives no \"deadline\"" "^$"
  analyze @ --strict)

# A run simulates the servers (the summary has a row per vCPU server with
# its tasks), as sweep --dir does; --dump prints the section.
servers_file(good "\"vm\": { ${rt}, \"cpus\": [0], \"tasks\": [\"a\", \"b\"] }" "")
servers_run(good 0 "^$" "\nvm +0 +0 +3.000/10.000ms .* a, b\n" @ --check)
servers_run(good 0 "^$" "\nserver vm: 3000/10000/10000 us per vCPU, cpus 0x1, tasks a b\n" @ --dump)
file(MAKE_DIRECTORY ${dir}/sweep)
file(COPY ${dir}/good.json DESTINATION ${dir}/sweep)
execute_process(COMMAND ${emulator} ${DLSIM} sweep --dir ${dir}/sweep --no-progress
  OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE r)
if(NOT r EQUAL 0)
  message(FATAL_ERROR "sweep --dir with servers: exit ${r}\n${e}")
endif()

# dlsim analyze, hand-derived (Shin & Lee, "Periodic resource model for
# compositional real-time guarantees", RTSS 2003, Theorem 1 and eq. 1):
# EDF inside the periodic resource (Pi, Theta) meets every deadline iff
# dbf(t) <= sbf(t) at every deadline t, with
#   sbf(t) = y Theta + max(0, t - 2 (Pi - Theta) - y Pi),
#   y = floor((t - (Pi - Theta)) / Pi), and 0 for t < Pi - Theta.
#
# 1. One task C = 1 ms, T = D = 10 ms in Pi = 5 ms. At t = 10 k ms,
#    dbf = k ms; for Theta <= 2.5 ms, y = floor((5 k + Theta) / 5) = 2k - 1
#    and the max term is max(0, Theta - (5 - Theta)) = 0, so
#    sbf(10 k) = (2k - 1) Theta >= k needs Theta >= k / (2k - 1), largest at
#    k = 1: Theta_min = 1 ms. With runtime 1000 us it is schedulable; with
#    999 us it fails at t = 10 ms: sbf = 999 us < dbf = 1000 us.
set(one "\"t\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 1000, \"dl-period\": 10000, \"run\": 1000, \"timer\": { \"ref\": \"t\", \"period\": 10000 } }")
servers_file(prm_one "\"vm\": { \"runtime\": 1000, \"deadline\": 5000, \"period\": 5000, \"cpus\": [1], \"tasks\": [\"t\"] }" "${one}")
servers_run(prm_one 0 "^$" "guest vm: periodic resource model\n +schedulable +theta_min 1000.000 us <= runtime 1000.000 us per period 5000.000 us: dbf <= sbf at every deadline" analyze @)
servers_file(prm_one_short "\"vm\": { \"runtime\": 999, \"deadline\": 5000, \"period\": 5000, \"cpus\": [1], \"tasks\": [\"t\"] }" "${one}")
servers_run(prm_one_short 0 "^$" "guest vm: periodic resource model\n +not schedulable +theta_min 1000.000 us > runtime 999.000 us per period 5000.000 us: at t = 10000.000 us the demand 1000.000 us > sbf 999.000 us" analyze @)
# 2. a (C = 1, T = 10 ms) and b (C = 2, T = 20 ms) in Pi = 10 ms. At t = 10:
#    dbf = 1, y = floor(Theta / 10) = 0, sbf = max(0, 2 Theta - 10), so
#    Theta >= 5.5; at t = 20: dbf = 4, sbf = Theta + max(0, 2 Theta - 10) =
#    6.5 at 5.5; later deadlines t = 20 k: dbf = 4 k, sbf = (2k - 1) Theta +
#    (2 Theta - 10) >= 11 k - 5.5 + 1 > 4 k. Theta_min = 5.5 ms; the server's
#    3 ms fails at t = 10 ms, where it may supply nothing (sbf = 0).
servers_run(good 0 "^$" "guest vm: periodic resource model\n +not schedulable +theta_min 5500.000 us > runtime 3000.000 us per period 10000.000 us: at t = 10000.000 us the demand 1000.000 us > sbf 0.000 us" analyze @)
# 3. vms.json's vm1: C = 1, T = 20 and C = 2, T = 40 in Pi = 10. At t = 40:
#    dbf = 2 + 2 = 4, y = floor((30 + Theta) / 10) = 3, sbf = 3 Theta (Theta
#    <= 5), so Theta >= 4/3 ms; t = 20 (dbf 1, sbf Theta), 60 (5, 5 Theta),
#    80 (8, 7 Theta), 120 (12, 11 Theta), ... ask less. The least budget in
#    whole ns is 4/3 ms rounded up: 1333334 ns, printed 1333.334 us.
execute_process(COMMAND ${emulator} ${DLSIM} analyze ${EXAMPLES}/vms.json
  OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE r)
if(NOT r EQUAL 0 OR NOT o MATCHES "guest vm1: periodic resource model\n +schedulable +theta_min 1333.334 us <= runtime 5000.000 us"
   OR NOT o MATCHES "guest vm2: periodic resource model\n +no verdict +2 vCPUs under global EDF"
   OR NOT o MATCHES "placement \\(qpa\\) +schedulable +CPU0: vm1/cpu0 host_io CPU2: vm2/cpu0 CPU3: vm2/cpu1")
  message(FATAL_ERROR "vms.json: exit ${r}\n${o}\n${e}")
endif()
# 4. Outside the test's model: deadline < period; a guest that misses
#    deadlines on a whole CPU (dbf(10 ms) = 6 + 5 = 11 ms > 10 ms) is not
#    schedulable in any server.
servers_file(short_deadline "\"vm\": { \"runtime\": 3000, \"deadline\": 5000, \"period\": 10000, \"cpus\": [0], \"tasks\": [\"a\"] }" "")
servers_run(short_deadline 0 "^$" "guest vm: periodic resource model\n +no verdict +deadline 5000 us < period 10000 us" analyze @)
set(heavy "\"h\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 6000, \"dl-period\": 10000, \"run\": 6000, \"timer\": { \"ref\": \"h\", \"period\": 10000 } }, \"i\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 5000, \"dl-period\": 10000, \"run\": 5000, \"timer\": { \"ref\": \"i\", \"period\": 10000 } }")
servers_file(guest_overload "\"vm\": { \"runtime\": 9000, \"deadline\": 10000, \"period\": 10000, \"cpus\": [0], \"tasks\": [\"h\", \"i\"] }" "${heavy}")
servers_run(guest_overload 0 "^$" "guest vm: periodic resource model\n +not schedulable +the guest's demand 11000000 ns > t = 10000000 ns .deadline of [hi]. even on a whole CPU" analyze @)

# The host's set: the vCPUs, pinned, then the host's own deadline tasks.
# Partitioned, vm/cpu0 (0.9) stays on CPU 1 and b (host, 0.1) and a fit
# CPU 0 by first fit; a second 0.9 server on CPU 0 leaves no room for b
# at the 95% limit (0.9 + 0.1 > 0.95 on both CPUs).
set(part [=["simulation": { "mode": "partitioned" },]=])
servers_file(pinned "\"vm\": { \"runtime\": 9000, \"deadline\": 10000, \"period\": 10000, \"cpus\": [1], \"tasks\": [\"a\"] }" "")
file(READ ${dir}/pinned.json text)
string(REPLACE "\"tasks\": {" "${part}\n\t\"tasks\": {" text "${text}")
file(WRITE ${dir}/pinned.json "${text}")
servers_run(pinned 0 "^$" "pinned.json: 2 deadline tasks on 2 CPUs .1 vCPU of 1 server among them.\n.*admission +admitted .*placement \\(qpa\\) +schedulable +CPU0: b CPU1: vm/cpu0\n" analyze @)
servers_file(no_room "\"vm\": { \"runtime\": 9000, \"deadline\": 10000, \"period\": 10000, \"cpus\": [1], \"tasks\": [\"a\"] }, \"vm2\": { \"runtime\": 9000, \"deadline\": 10000, \"period\": 10000, \"cpus\": [0], \"tasks\": [\"c\"] }"
  "\"c\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 100, \"dl-period\": 10000, \"run\": 100, \"timer\": { \"ref\": \"c\", \"period\": 10000 } }")
file(READ ${dir}/no_room.json text)
string(REPLACE "\"tasks\": {" "${part}\n\t\"tasks\": {" text "${text}")
file(WRITE ${dir}/no_room.json "${text}")
servers_run(no_room 0 "^$" "admission +refused +attach refuses task b: .*placement \\(qpa\\) +no verdict +admission refuses b: no placement to test" analyze @)
# Global mode: the pinned vCPUs beside migrating tasks have no test.
servers_run(good 0 "^$" "placement \\(qpa\\) +no verdict +simulation.mode is global" analyze @)

# --json: the servers (additive to the schema) and the guest's row, whose
# value is Theta_min in ns (case 1: 1000000).
servers_run(prm_one 0 "^$" "\"servers\": \\[{\"name\": \"vm\", \"runtime_ns\": 1000000, \"deadline_ns\": 5000000, \"period_ns\": 5000000, \"cpus\": \\[1\\], \"tasks\": \\[{\"name\": \"t\", \"runtime_ns\": 1000000, \"deadline_ns\": 10000000, \"period_ns\": 10000000}\\]}\\]"
  analyze @ --json)
servers_run(prm_one 0 "^$" "{\"test\": \"guest vm: periodic resource model\", \"verdict\": \"schedulable\", \"value\": 1000000, " analyze @ --json)

# A second "servers" section would drop one of them: refused.
file(WRITE ${dir}/second_section.json [=[
{ "tasks": { "a": { "policy": "SCHED_DEADLINE", "dl-runtime": 100, "dl-period": 1000, "run": 100 } },
  "servers": { "vm": { "runtime": 500, "deadline": 1000, "period": 1000, "cpus": [0], "tasks": ["a"] } },
  "servers": {} }
]=])
servers_run(second_section 65 "second_section.json:3:3: error: a second \"servers\" section .the first is at 2:3.: one of them would be dropped; merge them into one" "^$" analyze @)

# A guest task pinned by "cpus" (host CPUs or vCPUs?) is not modelled.
refused(pinned_guest "\"vm\": { ${rt}, \"cpus\": [0], \"tasks\": [\"p\"] }"
  "12:87: error: server \"vm\": task \"p\" has \"cpus\": an affinity inside a guest .host CPUs or vCPUs.. is not modelled"
  "\"p\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 500, \"dl-period\": 5000, \"cpus\": [1], \"run\": 100 }")
