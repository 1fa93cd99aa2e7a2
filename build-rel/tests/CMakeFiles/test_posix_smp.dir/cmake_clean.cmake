file(REMOVE_RECURSE
  "CMakeFiles/test_posix_smp.dir/test_posix_smp.c.o"
  "CMakeFiles/test_posix_smp.dir/test_posix_smp.c.o.d"
  "test_posix_smp"
  "test_posix_smp.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_posix_smp.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
