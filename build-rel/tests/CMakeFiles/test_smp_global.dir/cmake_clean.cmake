file(REMOVE_RECURSE
  "CMakeFiles/test_smp_global.dir/test_smp_global.c.o"
  "CMakeFiles/test_smp_global.dir/test_smp_global.c.o.d"
  "test_smp_global"
  "test_smp_global.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_smp_global.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
