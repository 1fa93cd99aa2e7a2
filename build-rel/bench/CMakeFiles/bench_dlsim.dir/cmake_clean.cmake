file(REMOVE_RECURSE
  "CMakeFiles/bench_dlsim.dir/dlsim.c.o"
  "CMakeFiles/bench_dlsim.dir/dlsim.c.o.d"
  "bench_dlsim"
  "bench_dlsim.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/bench_dlsim.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
