file(REMOVE_RECURSE
  "CMakeFiles/test_dlsim_jobs.dir/tests/support/dls_test_dlsim.c.o"
  "CMakeFiles/test_dlsim_jobs.dir/tests/support/dls_test_dlsim.c.o.d"
  "CMakeFiles/test_dlsim_jobs.dir/tests/test_dlsim_jobs.c.o"
  "CMakeFiles/test_dlsim_jobs.dir/tests/test_dlsim_jobs.c.o.d"
  "test_dlsim_jobs"
  "test_dlsim_jobs.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_dlsim_jobs.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
