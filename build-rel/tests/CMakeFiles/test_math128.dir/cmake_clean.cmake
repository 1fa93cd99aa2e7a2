file(REMOVE_RECURSE
  "CMakeFiles/test_math128.dir/test_math128.c.o"
  "CMakeFiles/test_math128.dir/test_math128.c.o.d"
  "test_math128"
  "test_math128.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_math128.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
