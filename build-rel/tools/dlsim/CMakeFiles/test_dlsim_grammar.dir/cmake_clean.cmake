file(REMOVE_RECURSE
  "CMakeFiles/test_dlsim_grammar.dir/tests/support/dls_test_dlsim.c.o"
  "CMakeFiles/test_dlsim_grammar.dir/tests/support/dls_test_dlsim.c.o.d"
  "CMakeFiles/test_dlsim_grammar.dir/tests/test_dlsim_grammar.c.o"
  "CMakeFiles/test_dlsim_grammar.dir/tests/test_dlsim_grammar.c.o.d"
  "test_dlsim_grammar"
  "test_dlsim_grammar.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_dlsim_grammar.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
