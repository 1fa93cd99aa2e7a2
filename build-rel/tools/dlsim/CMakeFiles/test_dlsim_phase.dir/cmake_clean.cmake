file(REMOVE_RECURSE
  "CMakeFiles/test_dlsim_phase.dir/tests/support/dls_test_dlsim.c.o"
  "CMakeFiles/test_dlsim_phase.dir/tests/support/dls_test_dlsim.c.o.d"
  "CMakeFiles/test_dlsim_phase.dir/tests/test_dlsim_phase.c.o"
  "CMakeFiles/test_dlsim_phase.dir/tests/test_dlsim_phase.c.o.d"
  "test_dlsim_phase"
  "test_dlsim_phase.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_dlsim_phase.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
