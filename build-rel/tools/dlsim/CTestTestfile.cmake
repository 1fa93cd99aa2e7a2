# CMake generated Testfile for 
# Source directory: /work/main/tools/dlsim
# Build directory: /work/main/build-rel/tools/dlsim
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
add_test(test_dlsim_cli_ref "/work/main/build-rel/tools/dlsim/test_dlsim_cli_ref")
set_tests_properties(test_dlsim_cli_ref PROPERTIES  TIMEOUT "600" _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;70;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(test_dlsim_cpus256 "/work/main/build-rel/tools/dlsim/test_dlsim_cpus256")
set_tests_properties(test_dlsim_cpus256 PROPERTIES  TIMEOUT "600" _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;70;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(test_dlsim_fair_server "/work/main/build-rel/tools/dlsim/test_dlsim_fair_server")
set_tests_properties(test_dlsim_fair_server PROPERTIES  TIMEOUT "600" _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;70;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(test_dlsim_grammar "/work/main/build-rel/tools/dlsim/test_dlsim_grammar")
set_tests_properties(test_dlsim_grammar PROPERTIES  TIMEOUT "600" _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;70;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(test_dlsim_guests "/work/main/build-rel/tools/dlsim/test_dlsim_guests")
set_tests_properties(test_dlsim_guests PROPERTIES  TIMEOUT "600" _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;70;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(test_dlsim_jobs "/work/main/build-rel/tools/dlsim/test_dlsim_jobs")
set_tests_properties(test_dlsim_jobs PROPERTIES  TIMEOUT "600" _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;70;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(test_dlsim_json "/work/main/build-rel/tools/dlsim/test_dlsim_json")
set_tests_properties(test_dlsim_json PROPERTIES  TIMEOUT "600" _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;70;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(test_dlsim_loops "/work/main/build-rel/tools/dlsim/test_dlsim_loops")
set_tests_properties(test_dlsim_loops PROPERTIES  TIMEOUT "600" _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;70;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(test_dlsim_lower "/work/main/build-rel/tools/dlsim/test_dlsim_lower")
set_tests_properties(test_dlsim_lower PROPERTIES  TIMEOUT "600" _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;70;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(test_dlsim_memory "/work/main/build-rel/tools/dlsim/test_dlsim_memory")
set_tests_properties(test_dlsim_memory PROPERTIES  TIMEOUT "600" _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;70;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(test_dlsim_outputs "/work/main/build-rel/tools/dlsim/test_dlsim_outputs")
set_tests_properties(test_dlsim_outputs PROPERTIES  TIMEOUT "600" _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;70;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(test_dlsim_phase "/work/main/build-rel/tools/dlsim/test_dlsim_phase")
set_tests_properties(test_dlsim_phase PROPERTIES  TIMEOUT "600" _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;70;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(test_dlsim_rtapp "/work/main/build-rel/tools/dlsim/test_dlsim_rtapp")
set_tests_properties(test_dlsim_rtapp PROPERTIES  TIMEOUT "600" _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;70;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(test_dlsim_rtapp_keys "/work/main/build-rel/tools/dlsim/test_dlsim_rtapp_keys")
set_tests_properties(test_dlsim_rtapp_keys PROPERTIES  TIMEOUT "600" _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;70;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(test_dlsim_servers "/work/main/build-rel/tools/dlsim/test_dlsim_servers")
set_tests_properties(test_dlsim_servers PROPERTIES  TIMEOUT "600" _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;70;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(test_dlsim_sim "/work/main/build-rel/tools/dlsim/test_dlsim_sim")
set_tests_properties(test_dlsim_sim PROPERTIES  TIMEOUT "600" _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;70;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(test_dlsim_sweep "/work/main/build-rel/tools/dlsim/test_dlsim_sweep")
set_tests_properties(test_dlsim_sweep PROPERTIES  TIMEOUT "600" _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;70;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(test_dlsim_tick "/work/main/build-rel/tools/dlsim/test_dlsim_tick")
set_tests_properties(test_dlsim_tick PROPERTIES  TIMEOUT "600" _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;70;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(test_dlsim_timing "/work/main/build-rel/tools/dlsim/test_dlsim_timing")
set_tests_properties(test_dlsim_timing PROPERTIES  TIMEOUT "600" _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;70;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(test_dlsim_workload "/work/main/build-rel/tools/dlsim/test_dlsim_workload")
set_tests_properties(test_dlsim_workload PROPERTIES  TIMEOUT "600" _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;70;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_levels_have_no_cycle "/usr/bin/cmake" "-E" "env" "NM=/usr/bin/nm" "sh" "/work/main/tools/check-levels.sh" "/work/main/build-rel/tools/dlsim/CMakeFiles/dlsim_core.dir")
set_tests_properties(dlsim_levels_have_no_cycle PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;88;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_example_av_playback "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DINPUT=/work/main/examples/dlsim/av_playback.json" "-DEMULATOR=" "-DGOLDEN=/work/main/examples/dlsim/av_playback.out" "-P" "/work/main/tools/dlsim/golden.cmake")
set_tests_properties(dlsim_example_av_playback PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;126;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_example_cbs_isolation "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DINPUT=/work/main/examples/dlsim/cbs_isolation.json" "-DEMULATOR=" "-DGOLDEN=/work/main/examples/dlsim/cbs_isolation.out" "-P" "/work/main/tools/dlsim/golden.cmake")
set_tests_properties(dlsim_example_cbs_isolation PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;126;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_example_dhall_global "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DINPUT=/work/main/examples/dlsim/dhall_global.json" "-DEMULATOR=" "-DGOLDEN=/work/main/examples/dlsim/dhall_global.out" "-P" "/work/main/tools/dlsim/golden.cmake")
set_tests_properties(dlsim_example_dhall_global PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;126;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_example_dhall_partitioned "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DINPUT=/work/main/examples/dlsim/dhall_partitioned.json" "-DEMULATOR=" "-DGOLDEN=/work/main/examples/dlsim/dhall_partitioned.out" "-P" "/work/main/tools/dlsim/golden.cmake")
set_tests_properties(dlsim_example_dhall_partitioned PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;126;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_example_edf_periodic "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DINPUT=/work/main/examples/dlsim/edf_periodic.json" "-DEMULATOR=" "-DGOLDEN=/work/main/examples/dlsim/edf_periodic.out" "-P" "/work/main/tools/dlsim/golden.cmake")
set_tests_properties(dlsim_example_edf_periodic PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;126;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_example_grub_reclaim "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DINPUT=/work/main/examples/dlsim/grub_reclaim.json" "-DEMULATOR=" "-DGOLDEN=/work/main/examples/dlsim/grub_reclaim.out" "-P" "/work/main/tools/dlsim/golden.cmake")
set_tests_properties(dlsim_example_grub_reclaim PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;126;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_example_hotplug "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DINPUT=/work/main/examples/dlsim/hotplug.json" "-DEMULATOR=" "-DGOLDEN=/work/main/examples/dlsim/hotplug.out" "-P" "/work/main/tools/dlsim/golden.cmake")
set_tests_properties(dlsim_example_hotplug PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;126;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_example_mobile "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DINPUT=/work/main/examples/dlsim/mobile.json" "-DEMULATOR=" "-DGOLDEN=/work/main/examples/dlsim/mobile.out" "-P" "/work/main/tools/dlsim/golden.cmake")
set_tests_properties(dlsim_example_mobile PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;126;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_example_mobile_dl "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DINPUT=/work/main/examples/dlsim/mobile_dl.json" "-DEMULATOR=" "-DGOLDEN=/work/main/examples/dlsim/mobile_dl.out" "-P" "/work/main/tools/dlsim/golden.cmake")
set_tests_properties(dlsim_example_mobile_dl PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;126;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_example_mobile_dl_server "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DINPUT=/work/main/examples/dlsim/mobile_dl_server.json" "-DEMULATOR=" "-DGOLDEN=/work/main/examples/dlsim/mobile_dl_server.out" "-P" "/work/main/tools/dlsim/golden.cmake")
set_tests_properties(dlsim_example_mobile_dl_server PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;126;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_example_pi_inheritance "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DINPUT=/work/main/examples/dlsim/pi_inheritance.json" "-DEMULATOR=" "-DGOLDEN=/work/main/examples/dlsim/pi_inheritance.out" "-P" "/work/main/tools/dlsim/golden.cmake")
set_tests_properties(dlsim_example_pi_inheritance PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;126;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_example_pi_inversion "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DINPUT=/work/main/examples/dlsim/pi_inversion.json" "-DEMULATOR=" "-DGOLDEN=/work/main/examples/dlsim/pi_inversion.out" "-P" "/work/main/tools/dlsim/golden.cmake")
set_tests_properties(dlsim_example_pi_inversion PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;126;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_example_vms_analyze "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=analyze|/work/main/examples/dlsim/vms.json|--strict" "-DRC=0" "-DERR=^\$" "-DOUT=guest [^ ]+: periodic resource model" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_example_vms_analyze PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;120;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_example_vms "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DINPUT=/work/main/examples/dlsim/vms.json" "-DEMULATOR=" "-DGOLDEN=/work/main/examples/dlsim/vms.out" "-P" "/work/main/tools/dlsim/golden.cmake")
set_tests_properties(dlsim_example_vms PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;126;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_rtapp_features "sh" "/work/main/tools/run-rtapp-examples.sh" "--dlsim" "/work/main/build-rel/tools/dlsim/dlsim" "--cpus" "2" "/work/main/tests/rtapp_features")
set_tests_properties(dlsim_rtapp_features PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;135;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_help "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=--help" "-DRC=0" "-DERR=^\$" "-DOUT=larger than 64 MiB are refused.*64  bad command line.*74  an output could not be written" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_help PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;158;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_json_full "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=/work/main/examples/dlsim/mobile.json|--quiet|--json|/dev/full" "-DRC=74" "-DERR=dlsim: cannot write /dev/full: No space left on device" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_json_full PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;161;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_json_no_dir "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=/work/main/examples/dlsim/mobile.json|--quiet|--json|/nonexistent/x.json" "-DRC=74" "-DERR=dlsim: cannot open /nonexistent/x.json: No such file or directory" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_json_no_dir PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;163;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_trace_full "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=/work/main/examples/dlsim/mobile.json|--quiet|--trace|/dev/full" "-DRC=74" "-DERR=dlsim: cannot write /dev/full: No space left on device" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_trace_full PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;165;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_svg_full "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=/work/main/examples/dlsim/mobile.json|--quiet|--svg|/dev/full" "-DRC=74" "-DERR=dlsim: cannot write /dev/full: No space left on device" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_svg_full PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;167;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_stdout_full "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=/work/main/examples/dlsim/mobile.json" "-DRC=74" "-DERR=dlsim: cannot write standard output: No space left on device" "-DSTDOUT_FILE=/dev/full" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_stdout_full PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;169;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_dump_stdout_full "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=/work/main/examples/dlsim/mobile.json|--dump" "-DRC=74" "-DERR=dlsim: cannot write standard output: No space left on device" "-DSTDOUT_FILE=/dev/full" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_dump_stdout_full PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;171;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_sweep_csv_full "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=sweep|--cpus|2|--tasks|4|--util|0.5|--sets|2|--horizon|50|--no-progress|--csv|/dev/full" "-DRC=73" "-DERR=dlsim sweep: cannot write /dev/full: No space left on device" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_sweep_csv_full PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;174;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_sweep_svg_full "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=sweep|--cpus|2|--tasks|4|--util|0.5|--sets|2|--horizon|50|--no-progress|--svg|/dev/full" "-DRC=73" "-DERR=dlsim sweep: cannot write /dev/full: No space left on device" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_sweep_svg_full PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;176;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_sweep_stdout_full "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=sweep|--cpus|2|--tasks|4|--util|0.5|--sets|2|--horizon|50|--no-progress" "-DRC=73" "-DERR=dlsim sweep: cannot write standard output: No space left on device" "-DSTDOUT_FILE=/dev/full" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_sweep_stdout_full PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;178;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_period_5s "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=/work/main/tools/dlsim/tests/cli/period_5s.json|--quiet" "-DRC=2" "-DERR=period_5s.json:4:5: the library refused \"slow\" .*: period outside the domain's .min, max. range .100 us to 4194304 us." "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_period_5s PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;181;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_admission_global "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=/work/main/tools/dlsim/tests/cli/overload_global.json|--quiet" "-DRC=2" "-DERR=overload_global.json:6:5: admission control refused \"c\" .3000/10000 us. on every CPU it may use
dlsim:   it needs 0.3000 of a CPU. admitted already 1.8000. limit 95% of the online capacity 2.000 CPUs = 1.9000
" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_admission_global PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;184;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_admission_partitioned "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=/work/main/tools/dlsim/tests/cli/overload_partitioned.json|--quiet" "-DRC=2" "-DERR=refused \"c\".*
dlsim:   CPU 0: it needs 0.3000. admitted already 0.9000. limit 95% of capacity 1.000 = 0.9500
dlsim:   CPU 1: " "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_admission_partitioned PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;188;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_numbers "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=/work/main/tools/dlsim/tests/cli/numbers.json" "-DRC=65" "-DERR=^[^
]*numbers.json:3:19: error: \"run\" is out of range .does not fit in 64 bits[^
]*
[^
]*numbers.json:3:50: error: \"sleep\" must be an integer, not a fraction .2.5.
[^
]*numbers.json:4:54: error: \"dl-runtime\" = 0 is too small .minimum 1.
dlsim: 3 error.s. in " "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_numbers PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;193;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_file_is_dir "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=/work/main/tools/dlsim/tests/cli" "-DRC=66" "-DERR=dlsim: cannot read [^
]*tests/cli: is a directory" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_file_is_dir PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;203;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_file_too_large "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=/dev/zero" "-DRC=66" "-DERR=dlsim: cannot read /dev/zero: larger than 64 MiB, the limit for workload files" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_file_too_large PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;206;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_json_no_arg "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=/work/main/examples/dlsim/mobile.json|--json" "-DRC=64" "-DERR=^dlsim: --json needs a FILE argument .dlsim --help lists the options.
\$" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_json_no_arg PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;208;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_two_files "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=/work/main/examples/dlsim/mobile.json|/work/main/examples/dlsim/mobile.json" "-DRC=64" "-DERR=^dlsim: one workload FILE at a time .got [^
]*mobile.json and [^
]*mobile.json. dlsim --help lists the options.
\$" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_two_files PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;211;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_no_file_build_tree "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=--check" "-DRC=0" "-DERR=^\$" "-DOUT=^dlsim: 4 CPUs, 12 threads, 5.000 s simulated" "-DCWD=/" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_no_file_build_tree PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;218;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_no_file_lone_copy "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=" "-DRC=66" "-DERR=no FILE given and the bundled example mobile.json is not installed beside" "-DCOPY_TO=/work/main/build-rel/tools/dlsim/lone/bin" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_no_file_lone_copy PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;220;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_workgen_suspend "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=/work/main/tools/dlsim/tests/cli/workgen_suspend.json|--quiet" "-DRC=0" "-DERR=workgen_suspend.json:6:28: warning: \"suspend\" has no value: read as \"suspend\": \"waiter\"" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_workgen_suspend PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;223;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_workgen_suspend_strict "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=/work/main/tools/dlsim/tests/cli/workgen_suspend.json|--strict" "-DRC=65" "-DERR=workgen_suspend.json:6:28: error: \"suspend\" has no value" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_workgen_suspend_strict PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;225;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_custom_slice "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=/work/main/tools/dlsim/tests/cli/custom_slice.json|--quiet" "-DRC=0" "-DERR=^[^
]*custom_slice.json:6:13: warning: task \"fair\": \"dl-runtime\" on a SCHED_OTHER task .a custom slice. is not modelled: dlsim's fair class gives every task the base slice .0.75 ms x .1 . log2 of the CPU count, at most 8..
\$" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_custom_slice PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;230;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_external_workload "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=/work/main/tools/dlsim/tests/cli/external_workload.json" "-DRC=65" "-DERR=external_workload.json:8:18: error: \"external_workload\" calls a function of a shared library .rt-app's external workload., which dlsim cannot simulate" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_external_workload PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;234;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_first_grammar "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=/work/main/tools/dlsim/tests/cli/first_grammar.json" "-DRC=65" "-DERR=first_grammar.json:5:13: error: \"exec\" belongs to rt-app's first grammar .exec, period, lock_order., which neither today's rt-app nor dlsim reads.*first_grammar.json:5:44: error: \"lock_order\" belongs" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_first_grammar PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;236;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_one_cpu_refused "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=/work/main/tools/dlsim/tests/cli/full_four.json|--quiet" "-DRC=2" "-DERR=admission control refused \"t-0\" .10000/10000 us.[^
]*
dlsim:   CPU 0: it needs 1.0000" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_one_cpu_refused PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;244;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_cpus_admission_100 "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=/work/main/tools/dlsim/tests/cli/full_four.json|--cpus|4|--admission|100|--check" "-DRC=0" "-DERR=^\$" "-DOUT=^dlsim: 4 CPUs, 4 threads, 1.000 s simulated, deadline tasks under global EDF .no simulation.mode: global, as Linux's root domain.
.*total: 400 jobs, 0 deadline misses" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_cpus_admission_100 PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;249;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_cpus_default_limit "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=/work/main/tools/dlsim/tests/cli/full_four.json|--cpus|4|--quiet" "-DRC=2" "-DERR=limit 95% of the online capacity 4.000 CPUs = 3.8000
dlsim:   the limit .the default." "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_cpus_default_limit PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;252;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_platform_file "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=/work/main/tools/dlsim/tests/cli/full_four.json|--platform|/work/main/tools/dlsim/tests/cli/platform_four.json|--admission|off|--check" "-DRC=0" "-DERR=^\$" "-DOUT=^dlsim: 4 CPUs, 4 threads.*400 jobs, 0 deadline misses" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_platform_file PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;255;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_admission_in_file "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=/work/main/tools/dlsim/tests/cli/admission_off.json|--check" "-DRC=0" "-DERR=^\$" "-DOUT=^dlsim: 4 CPUs.*400 jobs, 0 deadline misses" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_admission_in_file PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;257;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_admission_file_limit_named "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=/work/main/tools/dlsim/tests/cli/admission_off.json|--admission|50|--quiet" "-DRC=2" "-DERR=the limit .--admission. is" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_admission_file_limit_named PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;259;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_cpus_with_platform "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=/work/main/tools/dlsim/tests/cli/admission_off.json|--cpus|2" "-DRC=65" "-DERR=admission_off.json:3:14: error: --cpus 2: this platform section gives 4 CPUs" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_cpus_with_platform PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;261;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_admission_bad "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=/work/main/tools/dlsim/tests/cli/full_four.json|--admission|101" "-DRC=64" "-DERR=^dlsim: --admission 101: expected off or a percentage 1..100
\$" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_admission_bad PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;263;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_cpus_bad "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=/work/main/tools/dlsim/tests/cli/full_four.json|--cpus|0" "-DRC=64" "-DERR=^dlsim: --cpus 0: expected 1..256
\$" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_cpus_bad PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;266;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_cpus_257 "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=/work/main/tools/dlsim/tests/cli/full_four.json|--cpus|257" "-DRC=64" "-DERR=^dlsim: --cpus 257: expected 1..256
\$" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_cpus_257 PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;268;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_platform_missing "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=/work/main/tools/dlsim/tests/cli/full_four.json|--platform|/work/main/tools/dlsim/tests/cli/full_four.json" "-DRC=65" "-DERR=full_four.json has no \"platform\" object" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_platform_missing PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;270;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_help_keys "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=--help" "-DRC=0" "-DERR=^\$" "-DOUT=platform.tick_hz 0.*simulation.horizon_us the horizon: horizon_us, else global.duration,
 *else 10 s.*simulation.mode +global.*simulation.admission +95.*\"job-deadline\"" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_help_keys PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;273;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_cpus_tick_only "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=/work/main/tools/dlsim/tests/cli/tick_only.json|--cpus|4|--check" "-DRC=0" "-DERR=^\$" "-DOUT=^dlsim: 4 CPUs, 4 threads.*400 jobs, 0 deadline misses" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_cpus_tick_only PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;278;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_cpus_platform_tick_only "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=/work/main/tools/dlsim/tests/cli/full_four.json|--platform|/work/main/tools/dlsim/tests/cli/platform_tick.json|--cpus|4|--admission|off|--check" "-DRC=0" "-DERR=^\$" "-DOUT=^dlsim: 4 CPUs, 4 threads.*400 jobs, 0 deadline misses" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_cpus_platform_tick_only PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;280;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_cpus_platform_file "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=/work/main/tools/dlsim/tests/cli/full_four.json|--platform|/work/main/tools/dlsim/tests/cli/platform_four.json|--cpus|3" "-DRC=65" "-DERR=^[^
]*platform_four.json:1:15: error: --cpus 3: this platform section gives 4 CPUs" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_cpus_platform_file PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;282;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_analyze_cpus "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=analyze|/work/main/tools/dlsim/tests/cli/full_four.json|--cpus|4" "-DRC=0" "-DERR=^\$" "-DOUT=4 deadline tasks on 4 CPUs
.*admission +refused +attach refuses task t-3: .*limit 95% .the default. x 4.0000 CPUs
utilisation +no verdict +sum of C/T = 4.0000 <= 4 is necessary only.*
.*gfb +not shown +cannot show t-0 on 4 CPUs
.*rta +schedulable" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_analyze_cpus PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;288;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_analyze_partitioned_admission "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=analyze|/work/main/tools/dlsim/tests/cli/partitioned_admission.json" "-DRC=0" "-DERR=^\$" "-DOUT=admission +refused +attach refuses task t2: .*of each CPU, first fit in file order" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_analyze_partitioned_admission PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;297;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_partitioned_admission "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=/work/main/tools/dlsim/tests/cli/partitioned_admission.json|--quiet" "-DRC=2" "-DERR=admission control refused \"t2\"" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_partitioned_admission PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;299;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_analyze_admission_in_file "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=analyze|/work/main/tools/dlsim/tests/cli/admission_off.json" "-DRC=0" "-DERR=^\$" "-DOUT=admission +admitted +bandwidth 4.0000" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_analyze_admission_in_file PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;301;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_analyze_platform_admission "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=analyze|/work/main/tools/dlsim/tests/cli/full_four.json|--platform|/work/main/tools/dlsim/tests/cli/platform_four.json|--admission|100" "-DRC=0" "-DERR=^\$" "-DOUT=on 4 CPUs
.*admission +admitted +bandwidth 4.0000" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_analyze_platform_admission PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;303;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_analyze_cpus_with_platform "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=analyze|/work/main/tools/dlsim/tests/cli/admission_off.json|--cpus|2" "-DRC=65" "-DERR=admission_off.json:3:14: error: --cpus 2: this platform section gives 4 CPUs" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_analyze_cpus_with_platform PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;306;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_analyze_bad_admission "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=analyze|/work/main/tools/dlsim/tests/cli/full_four.json|--admission|0" "-DRC=64" "-DERR=^dlsim analyze: --admission 0: expected off or a percentage 1..100
\$" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_analyze_bad_admission PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;308;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_analyze_help "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=analyze|--help" "-DRC=0" "-DERR=^\$" "-DOUT=^usage: dlsim analyze FILE .options.
.*--cpus N.*--platform FILE.*--admission off.PERCENT.*--strict" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_analyze_help PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;311;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_analyze_h "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=analyze|-h" "-DRC=0" "-DERR=^\$" "-DOUT=^usage: dlsim analyze" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_analyze_h PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;313;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_sweep_help "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=sweep|--help" "-DRC=0" "-DERR=^\$" "-DOUT=^usage: dlsim sweep.*--fit F.*--progress.*SIGINT or SIGTERM" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_sweep_help PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;314;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_analyze_forked "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=analyze|/work/main/tools/dlsim/tests/cli/forked_deadline.json" "-DRC=0" "-DERR=\"srv\" is forked: analysed as 0 thread.s. from the start plus 2 forked" "-DOUT=forked_deadline.json: 2 deadline tasks on 2 CPUs" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_analyze_forked PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;319;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_wake_before_switch_out "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=/work/main/tools/dlsim/tests/cli/wake_before_switch_out.json|--check" "-DRC=0" "-DERR=^\$" "-DOUT=
a +SCHED_OTHER +0 +0 +0 +[0-9.]+ms +[0-9.]+ms +[0-9.]+ms +[0-9.]+ms +0 +0 +0
b +SCHED_OTHER +1 +0 +0 +[0-9.]+ms +[0-9.]+ms +[0-9.]+ms +[0-9.]+ms +0 +0 +0
" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_wake_before_switch_out PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;327;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_phase_policy_marked "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=/work/main/tools/dlsim/tests/cli/phase_policy.json|--json|/dev/stderr" "-DRC=0" "-DERR=\"name\": \"t\", \"policy\": \"SCHED_OTHER\", \"policy_changed\": true," "-DOUT=
t +SCHED_OTHER\\+ .*
\\+ a phase changed the thread's policy during the run" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_phase_policy_marked PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;329;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_help_affinity "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=--help" "-DRC=0" "-DERR=^\$" "-DOUT=simulation.affinity +linux" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_help_affinity PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;333;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_json_no_dir_before_run "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=/work/main/tools/dlsim/tests/cli/long_horizon.json|--quiet|--json|/nonexistent/x.json" "-DRC=74" "-DERR=^dlsim: cannot open /nonexistent/x.json: No such file or directory
\$" "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_json_no_dir_before_run PROPERTIES  TIMEOUT "30" _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;337;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_outputs_cli "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DWORKDIR=/work/main/build-rel/tools/dlsim" "-DWORKLOAD=/work/main/examples/dlsim/mobile.json" "-P" "/work/main/tools/dlsim/outputs_cli.cmake")
set_tests_properties(dlsim_outputs_cli PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;343;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_cli_no_deadline_tasks "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DARGS=/work/main/examples/dlsim/mobile.json" "-DRC=0" "-DERR=^\$" "-DOUT=^dlsim: 4 CPUs, 12 threads, 5.000 s simulated, no deadline tasks
thread " "-P" "/work/main/tools/dlsim/cli_case.cmake")
set_tests_properties(dlsim_cli_no_deadline_tasks PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;152;add_test;/work/main/tools/dlsim/CMakeLists.txt;350;dlsim_cli;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_sweep_cli "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DWORKDIR=/work/main/build-rel/tools/dlsim" "-P" "/work/main/tools/dlsim/sweep_cli.cmake")
set_tests_properties(dlsim_sweep_cli PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;355;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_servers_cli "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DWORKDIR=/work/main/build-rel/tools/dlsim" "-DEXAMPLES=/work/main/examples/dlsim" "-P" "/work/main/tools/dlsim/servers_cli.cmake")
set_tests_properties(dlsim_servers_cli PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;361;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
add_test(dlsim_analyze_cli "/usr/bin/cmake" "-DDLSIM=/work/main/build-rel/tools/dlsim/dlsim" "-DEMULATOR=" "-DWORKDIR=/work/main/build-rel/tools/dlsim" "-DEXAMPLES=/work/main/examples/dlsim" "-P" "/work/main/tools/dlsim/analyze_cli.cmake")
set_tests_properties(dlsim_analyze_cli PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tools/dlsim/CMakeLists.txt;367;add_test;/work/main/tools/dlsim/CMakeLists.txt;0;")
