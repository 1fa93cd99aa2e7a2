file(REMOVE_RECURSE
  "CMakeFiles/test_shared_api.dir/test_shared_api.c.o"
  "CMakeFiles/test_shared_api.dir/test_shared_api.c.o.d"
  "test_shared_api"
  "test_shared_api.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_shared_api.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
