file(REMOVE_RECURSE
  "CMakeFiles/test_dlsim_guests.dir/tests/support/dls_test_dlsim.c.o"
  "CMakeFiles/test_dlsim_guests.dir/tests/support/dls_test_dlsim.c.o.d"
  "CMakeFiles/test_dlsim_guests.dir/tests/test_dlsim_guests.c.o"
  "CMakeFiles/test_dlsim_guests.dir/tests/test_dlsim_guests.c.o.d"
  "test_dlsim_guests"
  "test_dlsim_guests.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_dlsim_guests.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
