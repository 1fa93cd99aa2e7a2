file(REMOVE_RECURSE
  "CMakeFiles/example_posix_vms.dir/posix_vms.c.o"
  "CMakeFiles/example_posix_vms.dir/posix_vms.c.o.d"
  "example_posix_vms"
  "example_posix_vms.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/example_posix_vms.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
