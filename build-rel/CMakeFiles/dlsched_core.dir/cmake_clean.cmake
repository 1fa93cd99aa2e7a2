file(REMOVE_RECURSE
  "libdlsched_core.a"
  "libdlsched_core.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/dlsched_core.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
