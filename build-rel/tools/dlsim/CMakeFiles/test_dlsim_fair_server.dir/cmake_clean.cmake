file(REMOVE_RECURSE
  "CMakeFiles/test_dlsim_fair_server.dir/tests/support/dls_test_dlsim.c.o"
  "CMakeFiles/test_dlsim_fair_server.dir/tests/support/dls_test_dlsim.c.o.d"
  "CMakeFiles/test_dlsim_fair_server.dir/tests/test_dlsim_fair_server.c.o"
  "CMakeFiles/test_dlsim_fair_server.dir/tests/test_dlsim_fair_server.c.o.d"
  "test_dlsim_fair_server"
  "test_dlsim_fair_server.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_dlsim_fair_server.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
