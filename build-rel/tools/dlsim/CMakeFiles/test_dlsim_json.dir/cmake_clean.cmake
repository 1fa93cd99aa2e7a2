file(REMOVE_RECURSE
  "CMakeFiles/test_dlsim_json.dir/tests/support/dls_test_dlsim.c.o"
  "CMakeFiles/test_dlsim_json.dir/tests/support/dls_test_dlsim.c.o.d"
  "CMakeFiles/test_dlsim_json.dir/tests/test_dlsim_json.c.o"
  "CMakeFiles/test_dlsim_json.dir/tests/test_dlsim_json.c.o.d"
  "test_dlsim_json"
  "test_dlsim_json.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_dlsim_json.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
