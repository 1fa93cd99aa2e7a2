file(REMOVE_RECURSE
  "CMakeFiles/test_analysis.dir/test_analysis.c.o"
  "CMakeFiles/test_analysis.dir/test_analysis.c.o.d"
  "test_analysis"
  "test_analysis.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_analysis.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
