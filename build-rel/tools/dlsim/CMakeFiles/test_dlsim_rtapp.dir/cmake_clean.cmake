file(REMOVE_RECURSE
  "CMakeFiles/test_dlsim_rtapp.dir/tests/support/dls_test_dlsim.c.o"
  "CMakeFiles/test_dlsim_rtapp.dir/tests/support/dls_test_dlsim.c.o.d"
  "CMakeFiles/test_dlsim_rtapp.dir/tests/test_dlsim_rtapp.c.o"
  "CMakeFiles/test_dlsim_rtapp.dir/tests/test_dlsim_rtapp.c.o.d"
  "test_dlsim_rtapp"
  "test_dlsim_rtapp.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_dlsim_rtapp.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
