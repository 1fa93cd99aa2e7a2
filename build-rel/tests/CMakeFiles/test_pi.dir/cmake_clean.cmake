file(REMOVE_RECURSE
  "CMakeFiles/test_pi.dir/test_pi.c.o"
  "CMakeFiles/test_pi.dir/test_pi.c.o.d"
  "test_pi"
  "test_pi.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_pi.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
