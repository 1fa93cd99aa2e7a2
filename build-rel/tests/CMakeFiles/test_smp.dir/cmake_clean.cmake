file(REMOVE_RECURSE
  "CMakeFiles/test_smp.dir/test_smp.c.o"
  "CMakeFiles/test_smp.dir/test_smp.c.o.d"
  "test_smp"
  "test_smp.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_smp.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
