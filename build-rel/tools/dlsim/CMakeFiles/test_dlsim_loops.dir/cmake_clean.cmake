file(REMOVE_RECURSE
  "CMakeFiles/test_dlsim_loops.dir/tests/support/dls_test_dlsim.c.o"
  "CMakeFiles/test_dlsim_loops.dir/tests/support/dls_test_dlsim.c.o.d"
  "CMakeFiles/test_dlsim_loops.dir/tests/test_dlsim_loops.c.o"
  "CMakeFiles/test_dlsim_loops.dir/tests/test_dlsim_loops.c.o.d"
  "test_dlsim_loops"
  "test_dlsim_loops.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_dlsim_loops.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
