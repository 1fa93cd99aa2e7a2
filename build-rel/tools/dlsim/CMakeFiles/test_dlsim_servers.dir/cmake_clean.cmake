file(REMOVE_RECURSE
  "CMakeFiles/test_dlsim_servers.dir/tests/support/dls_test_dlsim.c.o"
  "CMakeFiles/test_dlsim_servers.dir/tests/support/dls_test_dlsim.c.o.d"
  "CMakeFiles/test_dlsim_servers.dir/tests/test_dlsim_servers.c.o"
  "CMakeFiles/test_dlsim_servers.dir/tests/test_dlsim_servers.c.o.d"
  "test_dlsim_servers"
  "test_dlsim_servers.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_dlsim_servers.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
