file(REMOVE_RECURSE
  "CMakeFiles/dlsched_analysis_objects.dir/src/analysis/cbs.c.o"
  "CMakeFiles/dlsched_analysis_objects.dir/src/analysis/cbs.c.o.d"
  "CMakeFiles/dlsched_analysis_objects.dir/src/analysis/global.c.o"
  "CMakeFiles/dlsched_analysis_objects.dir/src/analysis/global.c.o.d"
  "CMakeFiles/dlsched_analysis_objects.dir/src/analysis/partition.c.o"
  "CMakeFiles/dlsched_analysis_objects.dir/src/analysis/partition.c.o.d"
  "CMakeFiles/dlsched_analysis_objects.dir/src/analysis/uni.c.o"
  "CMakeFiles/dlsched_analysis_objects.dir/src/analysis/uni.c.o.d"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/dlsched_analysis_objects.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
