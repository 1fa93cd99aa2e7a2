file(REMOVE_RECURSE
  "CMakeFiles/test_analysis_refs.dir/test_analysis_refs.c.o"
  "CMakeFiles/test_analysis_refs.dir/test_analysis_refs.c.o.d"
  "test_analysis_refs"
  "test_analysis_refs.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_analysis_refs.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
