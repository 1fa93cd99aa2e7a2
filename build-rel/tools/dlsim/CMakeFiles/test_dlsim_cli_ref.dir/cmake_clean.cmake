file(REMOVE_RECURSE
  "CMakeFiles/test_dlsim_cli_ref.dir/tests/support/dls_test_dlsim.c.o"
  "CMakeFiles/test_dlsim_cli_ref.dir/tests/support/dls_test_dlsim.c.o.d"
  "CMakeFiles/test_dlsim_cli_ref.dir/tests/test_dlsim_cli_ref.c.o"
  "CMakeFiles/test_dlsim_cli_ref.dir/tests/test_dlsim_cli_ref.c.o.d"
  "test_dlsim_cli_ref"
  "test_dlsim_cli_ref.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_dlsim_cli_ref.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
