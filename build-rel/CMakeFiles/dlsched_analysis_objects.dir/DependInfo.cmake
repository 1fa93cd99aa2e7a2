
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/src/analysis/cbs.c" "CMakeFiles/dlsched_analysis_objects.dir/src/analysis/cbs.c.o" "gcc" "CMakeFiles/dlsched_analysis_objects.dir/src/analysis/cbs.c.o.d"
  "/work/main/src/analysis/global.c" "CMakeFiles/dlsched_analysis_objects.dir/src/analysis/global.c.o" "gcc" "CMakeFiles/dlsched_analysis_objects.dir/src/analysis/global.c.o.d"
  "/work/main/src/analysis/partition.c" "CMakeFiles/dlsched_analysis_objects.dir/src/analysis/partition.c.o" "gcc" "CMakeFiles/dlsched_analysis_objects.dir/src/analysis/partition.c.o.d"
  "/work/main/src/analysis/uni.c" "CMakeFiles/dlsched_analysis_objects.dir/src/analysis/uni.c.o" "gcc" "CMakeFiles/dlsched_analysis_objects.dir/src/analysis/uni.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
