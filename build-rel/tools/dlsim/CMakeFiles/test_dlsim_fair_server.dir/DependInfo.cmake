
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/tools/dlsim/tests/support/dls_test_dlsim.c" "tools/dlsim/CMakeFiles/test_dlsim_fair_server.dir/tests/support/dls_test_dlsim.c.o" "gcc" "tools/dlsim/CMakeFiles/test_dlsim_fair_server.dir/tests/support/dls_test_dlsim.c.o.d"
  "/work/main/tools/dlsim/tests/test_dlsim_fair_server.c" "tools/dlsim/CMakeFiles/test_dlsim_fair_server.dir/tests/test_dlsim_fair_server.c.o" "gcc" "tools/dlsim/CMakeFiles/test_dlsim_fair_server.dir/tests/test_dlsim_fair_server.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/main/build-rel/tools/dlsim/CMakeFiles/dlsim_core.dir/DependInfo.cmake"
  "/work/main/build-rel/tests/CMakeFiles/dls_testsupport.dir/DependInfo.cmake"
  "/work/main/build-rel/CMakeFiles/dlsched_static.dir/DependInfo.cmake"
  "/work/main/build-rel/tools/prng/CMakeFiles/dls_prng.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
