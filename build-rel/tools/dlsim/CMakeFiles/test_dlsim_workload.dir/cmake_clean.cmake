file(REMOVE_RECURSE
  "CMakeFiles/test_dlsim_workload.dir/tests/support/dls_test_dlsim.c.o"
  "CMakeFiles/test_dlsim_workload.dir/tests/support/dls_test_dlsim.c.o.d"
  "CMakeFiles/test_dlsim_workload.dir/tests/test_dlsim_workload.c.o"
  "CMakeFiles/test_dlsim_workload.dir/tests/test_dlsim_workload.c.o.d"
  "test_dlsim_workload"
  "test_dlsim_workload.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_dlsim_workload.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
