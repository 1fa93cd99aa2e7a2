file(REMOVE_RECURSE
  "CMakeFiles/test_dlsim_sim.dir/tests/support/dls_test_dlsim.c.o"
  "CMakeFiles/test_dlsim_sim.dir/tests/support/dls_test_dlsim.c.o.d"
  "CMakeFiles/test_dlsim_sim.dir/tests/test_dlsim_sim.c.o"
  "CMakeFiles/test_dlsim_sim.dir/tests/test_dlsim_sim.c.o.d"
  "test_dlsim_sim"
  "test_dlsim_sim.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_dlsim_sim.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
