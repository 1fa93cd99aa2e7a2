file(REMOVE_RECURSE
  "CMakeFiles/test_cbs_props.dir/test_cbs_props.c.o"
  "CMakeFiles/test_cbs_props.dir/test_cbs_props.c.o.d"
  "test_cbs_props"
  "test_cbs_props.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_cbs_props.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
