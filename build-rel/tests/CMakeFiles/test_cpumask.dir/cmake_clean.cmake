file(REMOVE_RECURSE
  "CMakeFiles/test_cpumask.dir/test_cpumask.c.o"
  "CMakeFiles/test_cpumask.dir/test_cpumask.c.o.d"
  "test_cpumask"
  "test_cpumask.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_cpumask.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
