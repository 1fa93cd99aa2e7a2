file(REMOVE_RECURSE
  "libdlsched_posix.a"
  "libdlsched_posix.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/dlsched_posix.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
