file(REMOVE_RECURSE
  "CMakeFiles/test_dlsim_timing.dir/tests/support/dls_test_dlsim.c.o"
  "CMakeFiles/test_dlsim_timing.dir/tests/support/dls_test_dlsim.c.o.d"
  "CMakeFiles/test_dlsim_timing.dir/tests/test_dlsim_timing.c.o"
  "CMakeFiles/test_dlsim_timing.dir/tests/test_dlsim_timing.c.o.d"
  "test_dlsim_timing"
  "test_dlsim_timing.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_dlsim_timing.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
