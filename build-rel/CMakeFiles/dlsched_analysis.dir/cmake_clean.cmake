file(REMOVE_RECURSE
  "libdlsched_analysis.a"
  "libdlsched_analysis.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/dlsched_analysis.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
