file(REMOVE_RECURSE
  "CMakeFiles/bench_analysis.dir/analysis.c.o"
  "CMakeFiles/bench_analysis.dir/analysis.c.o.d"
  "bench_analysis"
  "bench_analysis.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/bench_analysis.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
