file(REMOVE_RECURSE
  "CMakeFiles/test_common.dir/test_common.c.o"
  "CMakeFiles/test_common.dir/test_common.c.o.d"
  "test_common"
  "test_common.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_common.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
