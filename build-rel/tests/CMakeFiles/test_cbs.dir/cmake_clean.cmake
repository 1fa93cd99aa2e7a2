file(REMOVE_RECURSE
  "CMakeFiles/test_cbs.dir/test_cbs.c.o"
  "CMakeFiles/test_cbs.dir/test_cbs.c.o.d"
  "test_cbs"
  "test_cbs.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_cbs.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
