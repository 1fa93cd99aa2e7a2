file(REMOVE_RECURSE
  "CMakeFiles/test_posix.dir/test_posix.c.o"
  "CMakeFiles/test_posix.dir/test_posix.c.o.d"
  "test_posix"
  "test_posix.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_posix.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
