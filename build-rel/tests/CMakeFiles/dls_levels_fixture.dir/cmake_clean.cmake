file(REMOVE_RECURSE
  "CMakeFiles/dls_levels_fixture.dir/levels/cycle_a.c.o"
  "CMakeFiles/dls_levels_fixture.dir/levels/cycle_a.c.o.d"
  "CMakeFiles/dls_levels_fixture.dir/levels/cycle_b.c.o"
  "CMakeFiles/dls_levels_fixture.dir/levels/cycle_b.c.o.d"
  "CMakeFiles/dls_levels_fixture.dir/levels/top_c.c.o"
  "CMakeFiles/dls_levels_fixture.dir/levels/top_c.c.o.d"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/dls_levels_fixture.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
