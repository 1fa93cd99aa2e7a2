file(REMOVE_RECURSE
  "libdlsched.pdb"
  "libdlsched.so"
  "libdlsched.so.0"
  "libdlsched.so.0.1.0"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/dlsched_shared.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
