file(REMOVE_RECURSE
  "CMakeFiles/test_pi_sched.dir/test_pi_sched.c.o"
  "CMakeFiles/test_pi_sched.dir/test_pi_sched.c.o.d"
  "test_pi_sched"
  "test_pi_sched.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_pi_sched.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
