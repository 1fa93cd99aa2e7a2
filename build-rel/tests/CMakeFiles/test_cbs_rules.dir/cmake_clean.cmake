file(REMOVE_RECURSE
  "CMakeFiles/test_cbs_rules.dir/test_cbs_rules.c.o"
  "CMakeFiles/test_cbs_rules.dir/test_cbs_rules.c.o.d"
  "test_cbs_rules"
  "test_cbs_rules.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_cbs_rules.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
