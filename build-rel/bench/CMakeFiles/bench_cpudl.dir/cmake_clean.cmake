file(REMOVE_RECURSE
  "CMakeFiles/bench_cpudl.dir/cpudl.c.o"
  "CMakeFiles/bench_cpudl.dir/cpudl.c.o.d"
  "bench_cpudl"
  "bench_cpudl.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/bench_cpudl.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
