file(REMOVE_RECURSE
  "CMakeFiles/test_grub.dir/test_grub.c.o"
  "CMakeFiles/test_grub.dir/test_grub.c.o.d"
  "test_grub"
  "test_grub.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_grub.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
