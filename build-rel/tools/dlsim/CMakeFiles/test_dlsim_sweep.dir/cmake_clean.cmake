file(REMOVE_RECURSE
  "CMakeFiles/test_dlsim_sweep.dir/tests/support/dls_test_dlsim.c.o"
  "CMakeFiles/test_dlsim_sweep.dir/tests/support/dls_test_dlsim.c.o.d"
  "CMakeFiles/test_dlsim_sweep.dir/tests/test_dlsim_sweep.c.o"
  "CMakeFiles/test_dlsim_sweep.dir/tests/test_dlsim_sweep.c.o.d"
  "test_dlsim_sweep"
  "test_dlsim_sweep.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_dlsim_sweep.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
