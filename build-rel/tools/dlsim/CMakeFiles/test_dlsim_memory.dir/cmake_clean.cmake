file(REMOVE_RECURSE
  "CMakeFiles/test_dlsim_memory.dir/tests/support/dls_test_dlsim.c.o"
  "CMakeFiles/test_dlsim_memory.dir/tests/support/dls_test_dlsim.c.o.d"
  "CMakeFiles/test_dlsim_memory.dir/tests/test_dlsim_memory.c.o"
  "CMakeFiles/test_dlsim_memory.dir/tests/test_dlsim_memory.c.o.d"
  "test_dlsim_memory"
  "test_dlsim_memory.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_dlsim_memory.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
