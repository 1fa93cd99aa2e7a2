# CMake generated Testfile for 
# Source directory: /work/main/examples
# Build directory: /work/main/build-rel/examples
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
add_test(example_posix_reservations "/work/main/build-rel/examples/example_posix_reservations" "0.4")
set_tests_properties(example_posix_reservations PROPERTIES  _BACKTRACE_TRIPLES "/work/main/examples/CMakeLists.txt;11;add_test;/work/main/examples/CMakeLists.txt;0;")
add_test(example_posix_vms "/work/main/build-rel/examples/example_posix_vms" "0.4")
set_tests_properties(example_posix_vms PROPERTIES  _BACKTRACE_TRIPLES "/work/main/examples/CMakeLists.txt;11;add_test;/work/main/examples/CMakeLists.txt;0;")
add_test(example_tick_rtos "/work/main/build-rel/examples/example_tick_rtos")
set_tests_properties(example_tick_rtos PROPERTIES  _BACKTRACE_TRIPLES "/work/main/examples/CMakeLists.txt;13;add_test;/work/main/examples/CMakeLists.txt;0;")
add_test(one_cpu_links_no_smp "sh" "/work/main/tools/check-no-smp.sh" "/usr/bin/nm" "/work/main/build-rel/examples/example_tick_rtos")
set_tests_properties(one_cpu_links_no_smp PROPERTIES  _BACKTRACE_TRIPLES "/work/main/examples/CMakeLists.txt;21;add_test;/work/main/examples/CMakeLists.txt;0;")
add_test(example_tick_rtos_programs_abs_ns "sh" "-c" "grep -q 'abs_ns' '/work/main/examples/tick_rtos.c' && ! grep -n -e '->expires' -e '\\.expires' '/work/main/examples/tick_rtos.c'")
set_tests_properties(example_tick_rtos_programs_abs_ns PROPERTIES  _BACKTRACE_TRIPLES "/work/main/examples/CMakeLists.txt;29;add_test;/work/main/examples/CMakeLists.txt;0;")
