file(REMOVE_RECURSE
  "libdlsched.a"
  "libdlsched.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/dlsched_static.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
