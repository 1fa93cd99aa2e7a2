
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/tests/levels/cycle_a.c" "tests/CMakeFiles/dls_levels_fixture.dir/levels/cycle_a.c.o" "gcc" "tests/CMakeFiles/dls_levels_fixture.dir/levels/cycle_a.c.o.d"
  "/work/main/tests/levels/cycle_b.c" "tests/CMakeFiles/dls_levels_fixture.dir/levels/cycle_b.c.o" "gcc" "tests/CMakeFiles/dls_levels_fixture.dir/levels/cycle_b.c.o.d"
  "/work/main/tests/levels/top_c.c" "tests/CMakeFiles/dls_levels_fixture.dir/levels/top_c.c.o" "gcc" "tests/CMakeFiles/dls_levels_fixture.dir/levels/top_c.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
