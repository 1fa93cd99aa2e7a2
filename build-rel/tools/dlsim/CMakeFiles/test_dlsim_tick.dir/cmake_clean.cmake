file(REMOVE_RECURSE
  "CMakeFiles/test_dlsim_tick.dir/tests/support/dls_test_dlsim.c.o"
  "CMakeFiles/test_dlsim_tick.dir/tests/support/dls_test_dlsim.c.o.d"
  "CMakeFiles/test_dlsim_tick.dir/tests/test_dlsim_tick.c.o"
  "CMakeFiles/test_dlsim_tick.dir/tests/test_dlsim_tick.c.o.d"
  "test_dlsim_tick"
  "test_dlsim_tick.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_dlsim_tick.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
