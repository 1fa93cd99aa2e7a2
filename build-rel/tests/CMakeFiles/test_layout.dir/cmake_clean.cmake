file(REMOVE_RECURSE
  "CMakeFiles/test_layout.dir/test_layout.c.o"
  "CMakeFiles/test_layout.dir/test_layout.c.o.d"
  "test_layout"
  "test_layout.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_layout.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
