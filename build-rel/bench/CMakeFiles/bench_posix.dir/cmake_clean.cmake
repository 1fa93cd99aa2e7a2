file(REMOVE_RECURSE
  "CMakeFiles/bench_posix.dir/posix.c.o"
  "CMakeFiles/bench_posix.dir/posix.c.o.d"
  "bench_posix"
  "bench_posix.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/bench_posix.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
