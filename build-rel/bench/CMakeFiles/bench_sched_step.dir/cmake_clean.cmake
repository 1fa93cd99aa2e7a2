file(REMOVE_RECURSE
  "CMakeFiles/bench_sched_step.dir/sched_step.c.o"
  "CMakeFiles/bench_sched_step.dir/sched_step.c.o.d"
  "bench_sched_step"
  "bench_sched_step.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/bench_sched_step.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
