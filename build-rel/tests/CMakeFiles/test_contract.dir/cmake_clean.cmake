file(REMOVE_RECURSE
  "CMakeFiles/test_contract.dir/test_contract.c.o"
  "CMakeFiles/test_contract.dir/test_contract.c.o.d"
  "test_contract"
  "test_contract.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_contract.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
