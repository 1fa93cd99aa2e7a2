file(REMOVE_RECURSE
  "CMakeFiles/test_dlsim_rtapp_keys.dir/tests/support/dls_test_dlsim.c.o"
  "CMakeFiles/test_dlsim_rtapp_keys.dir/tests/support/dls_test_dlsim.c.o.d"
  "CMakeFiles/test_dlsim_rtapp_keys.dir/tests/test_dlsim_rtapp_keys.c.o"
  "CMakeFiles/test_dlsim_rtapp_keys.dir/tests/test_dlsim_rtapp_keys.c.o.d"
  "test_dlsim_rtapp_keys"
  "test_dlsim_rtapp_keys.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_dlsim_rtapp_keys.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
