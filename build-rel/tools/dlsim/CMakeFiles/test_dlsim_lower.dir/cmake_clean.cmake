file(REMOVE_RECURSE
  "CMakeFiles/test_dlsim_lower.dir/tests/support/dls_test_dlsim.c.o"
  "CMakeFiles/test_dlsim_lower.dir/tests/support/dls_test_dlsim.c.o.d"
  "CMakeFiles/test_dlsim_lower.dir/tests/test_dlsim_lower.c.o"
  "CMakeFiles/test_dlsim_lower.dir/tests/test_dlsim_lower.c.o.d"
  "test_dlsim_lower"
  "test_dlsim_lower.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_dlsim_lower.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
