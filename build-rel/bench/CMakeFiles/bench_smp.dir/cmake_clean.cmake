file(REMOVE_RECURSE
  "CMakeFiles/bench_smp.dir/smp.c.o"
  "CMakeFiles/bench_smp.dir/smp.c.o.d"
  "bench_smp"
  "bench_smp.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/bench_smp.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
