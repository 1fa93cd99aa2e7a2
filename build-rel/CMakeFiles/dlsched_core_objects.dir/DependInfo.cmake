
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/src/cbs/admission.c" "CMakeFiles/dlsched_core_objects.dir/src/cbs/admission.c.o" "gcc" "CMakeFiles/dlsched_core_objects.dir/src/cbs/admission.c.o.d"
  "/work/main/src/cbs/cbs.c" "CMakeFiles/dlsched_core_objects.dir/src/cbs/cbs.c.o" "gcc" "CMakeFiles/dlsched_core_objects.dir/src/cbs/cbs.c.o.d"
  "/work/main/src/cbs/grub.c" "CMakeFiles/dlsched_core_objects.dir/src/cbs/grub.c.o" "gcc" "CMakeFiles/dlsched_core_objects.dir/src/cbs/grub.c.o.d"
  "/work/main/src/cbs/params.c" "CMakeFiles/dlsched_core_objects.dir/src/cbs/params.c.o" "gcc" "CMakeFiles/dlsched_core_objects.dir/src/cbs/params.c.o.d"
  "/work/main/src/edf/bw.c" "CMakeFiles/dlsched_core_objects.dir/src/edf/bw.c.o" "gcc" "CMakeFiles/dlsched_core_objects.dir/src/edf/bw.c.o.d"
  "/work/main/src/edf/cpudl.c" "CMakeFiles/dlsched_core_objects.dir/src/edf/cpudl.c.o" "gcc" "CMakeFiles/dlsched_core_objects.dir/src/edf/cpudl.c.o.d"
  "/work/main/src/edf/cpumask.c" "CMakeFiles/dlsched_core_objects.dir/src/edf/cpumask.c.o" "gcc" "CMakeFiles/dlsched_core_objects.dir/src/edf/cpumask.c.o.d"
  "/work/main/src/edf/domain.c" "CMakeFiles/dlsched_core_objects.dir/src/edf/domain.c.o" "gcc" "CMakeFiles/dlsched_core_objects.dir/src/edf/domain.c.o.d"
  "/work/main/src/edf/entity.c" "CMakeFiles/dlsched_core_objects.dir/src/edf/entity.c.o" "gcc" "CMakeFiles/dlsched_core_objects.dir/src/edf/entity.c.o.d"
  "/work/main/src/edf/rq.c" "CMakeFiles/dlsched_core_objects.dir/src/edf/rq.c.o" "gcc" "CMakeFiles/dlsched_core_objects.dir/src/edf/rq.c.o.d"
  "/work/main/src/edf/smp.c" "CMakeFiles/dlsched_core_objects.dir/src/edf/smp.c.o" "gcc" "CMakeFiles/dlsched_core_objects.dir/src/edf/smp.c.o.d"
  "/work/main/src/edf/smp_affinity.c" "CMakeFiles/dlsched_core_objects.dir/src/edf/smp_affinity.c.o" "gcc" "CMakeFiles/dlsched_core_objects.dir/src/edf/smp_affinity.c.o.d"
  "/work/main/src/edf/smp_bw.c" "CMakeFiles/dlsched_core_objects.dir/src/edf/smp_bw.c.o" "gcc" "CMakeFiles/dlsched_core_objects.dir/src/edf/smp_bw.c.o.d"
  "/work/main/src/edf/smp_check.c" "CMakeFiles/dlsched_core_objects.dir/src/edf/smp_check.c.o" "gcc" "CMakeFiles/dlsched_core_objects.dir/src/edf/smp_check.c.o.d"
  "/work/main/src/edf/smp_hotplug.c" "CMakeFiles/dlsched_core_objects.dir/src/edf/smp_hotplug.c.o" "gcc" "CMakeFiles/dlsched_core_objects.dir/src/edf/smp_hotplug.c.o.d"
  "/work/main/src/edf/smp_place.c" "CMakeFiles/dlsched_core_objects.dir/src/edf/smp_place.c.o" "gcc" "CMakeFiles/dlsched_core_objects.dir/src/edf/smp_place.c.o.d"
  "/work/main/src/edf/smp_push.c" "CMakeFiles/dlsched_core_objects.dir/src/edf/smp_push.c.o" "gcc" "CMakeFiles/dlsched_core_objects.dir/src/edf/smp_push.c.o.d"
  "/work/main/src/edf/smp_rq.c" "CMakeFiles/dlsched_core_objects.dir/src/edf/smp_rq.c.o" "gcc" "CMakeFiles/dlsched_core_objects.dir/src/edf/smp_rq.c.o.d"
  "/work/main/src/error.c" "CMakeFiles/dlsched_core_objects.dir/src/error.c.o" "gcc" "CMakeFiles/dlsched_core_objects.dir/src/error.c.o.d"
  "/work/main/src/math128/math128.c" "CMakeFiles/dlsched_core_objects.dir/src/math128/math128.c.o" "gcc" "CMakeFiles/dlsched_core_objects.dir/src/math128/math128.c.o.d"
  "/work/main/src/pi/pi.c" "CMakeFiles/dlsched_core_objects.dir/src/pi/pi.c.o" "gcc" "CMakeFiles/dlsched_core_objects.dir/src/pi/pi.c.o.d"
  "/work/main/src/rbtree.c" "CMakeFiles/dlsched_core_objects.dir/src/rbtree.c.o" "gcc" "CMakeFiles/dlsched_core_objects.dir/src/rbtree.c.o.d"
  "/work/main/src/rbtree_check.c" "CMakeFiles/dlsched_core_objects.dir/src/rbtree_check.c.o" "gcc" "CMakeFiles/dlsched_core_objects.dir/src/rbtree_check.c.o.d"
  "/work/main/src/server/server.c" "CMakeFiles/dlsched_core_objects.dir/src/server/server.c.o" "gcc" "CMakeFiles/dlsched_core_objects.dir/src/server/server.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
