file(REMOVE_RECURSE
  "CMakeFiles/bench_math128.dir/math128.c.o"
  "CMakeFiles/bench_math128.dir/math128.c.o.d"
  "bench_math128"
  "bench_math128.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/bench_math128.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
