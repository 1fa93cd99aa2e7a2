
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/src/platform/posix/clock_lock.c" "CMakeFiles/dlsched_posix_objects.dir/src/platform/posix/clock_lock.c.o" "gcc" "CMakeFiles/dlsched_posix_objects.dir/src/platform/posix/clock_lock.c.o.d"
  "/work/main/src/platform/posix/pi_mutex.c" "CMakeFiles/dlsched_posix_objects.dir/src/platform/posix/pi_mutex.c.o" "gcc" "CMakeFiles/dlsched_posix_objects.dir/src/platform/posix/pi_mutex.c.o.d"
  "/work/main/src/platform/posix/platform.c" "CMakeFiles/dlsched_posix_objects.dir/src/platform/posix/platform.c.o" "gcc" "CMakeFiles/dlsched_posix_objects.dir/src/platform/posix/platform.c.o.d"
  "/work/main/src/platform/posix/timers.c" "CMakeFiles/dlsched_posix_objects.dir/src/platform/posix/timers.c.o" "gcc" "CMakeFiles/dlsched_posix_objects.dir/src/platform/posix/timers.c.o.d"
  "/work/main/src/platform/posix/worker.c" "CMakeFiles/dlsched_posix_objects.dir/src/platform/posix/worker.c.o" "gcc" "CMakeFiles/dlsched_posix_objects.dir/src/platform/posix/worker.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
