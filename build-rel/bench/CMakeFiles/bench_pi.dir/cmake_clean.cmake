file(REMOVE_RECURSE
  "CMakeFiles/bench_pi.dir/pi.c.o"
  "CMakeFiles/bench_pi.dir/pi.c.o.d"
  "bench_pi"
  "bench_pi.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/bench_pi.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
