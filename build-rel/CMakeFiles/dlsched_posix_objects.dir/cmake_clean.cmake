file(REMOVE_RECURSE
  "CMakeFiles/dlsched_posix_objects.dir/src/platform/posix/clock_lock.c.o"
  "CMakeFiles/dlsched_posix_objects.dir/src/platform/posix/clock_lock.c.o.d"
  "CMakeFiles/dlsched_posix_objects.dir/src/platform/posix/pi_mutex.c.o"
  "CMakeFiles/dlsched_posix_objects.dir/src/platform/posix/pi_mutex.c.o.d"
  "CMakeFiles/dlsched_posix_objects.dir/src/platform/posix/platform.c.o"
  "CMakeFiles/dlsched_posix_objects.dir/src/platform/posix/platform.c.o.d"
  "CMakeFiles/dlsched_posix_objects.dir/src/platform/posix/timers.c.o"
  "CMakeFiles/dlsched_posix_objects.dir/src/platform/posix/timers.c.o.d"
  "CMakeFiles/dlsched_posix_objects.dir/src/platform/posix/worker.c.o"
  "CMakeFiles/dlsched_posix_objects.dir/src/platform/posix/worker.c.o.d"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/dlsched_posix_objects.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
