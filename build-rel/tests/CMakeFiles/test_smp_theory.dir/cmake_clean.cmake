file(REMOVE_RECURSE
  "CMakeFiles/test_smp_theory.dir/test_smp_theory.c.o"
  "CMakeFiles/test_smp_theory.dir/test_smp_theory.c.o.d"
  "test_smp_theory"
  "test_smp_theory.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_smp_theory.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
