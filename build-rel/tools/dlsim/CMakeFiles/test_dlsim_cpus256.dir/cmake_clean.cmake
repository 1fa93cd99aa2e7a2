file(REMOVE_RECURSE
  "CMakeFiles/test_dlsim_cpus256.dir/tests/support/dls_test_dlsim.c.o"
  "CMakeFiles/test_dlsim_cpus256.dir/tests/support/dls_test_dlsim.c.o.d"
  "CMakeFiles/test_dlsim_cpus256.dir/tests/test_dlsim_cpus256.c.o"
  "CMakeFiles/test_dlsim_cpus256.dir/tests/test_dlsim_cpus256.c.o.d"
  "test_dlsim_cpus256"
  "test_dlsim_cpus256.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_dlsim_cpus256.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
