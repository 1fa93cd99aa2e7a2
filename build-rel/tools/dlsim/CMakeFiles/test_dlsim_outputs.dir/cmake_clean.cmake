file(REMOVE_RECURSE
  "CMakeFiles/test_dlsim_outputs.dir/tests/support/dls_test_dlsim.c.o"
  "CMakeFiles/test_dlsim_outputs.dir/tests/support/dls_test_dlsim.c.o.d"
  "CMakeFiles/test_dlsim_outputs.dir/tests/test_dlsim_outputs.c.o"
  "CMakeFiles/test_dlsim_outputs.dir/tests/test_dlsim_outputs.c.o.d"
  "test_dlsim_outputs"
  "test_dlsim_outputs.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_dlsim_outputs.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
