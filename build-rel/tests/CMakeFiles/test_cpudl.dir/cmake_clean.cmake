file(REMOVE_RECURSE
  "CMakeFiles/test_cpudl.dir/test_cpudl.c.o"
  "CMakeFiles/test_cpudl.dir/test_cpudl.c.o.d"
  "test_cpudl"
  "test_cpudl.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_cpudl.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
