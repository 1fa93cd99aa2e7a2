file(REMOVE_RECURSE
  "CMakeFiles/test_pi_posix.dir/test_pi_posix.c.o"
  "CMakeFiles/test_pi_posix.dir/test_pi_posix.c.o.d"
  "test_pi_posix"
  "test_pi_posix.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_pi_posix.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
