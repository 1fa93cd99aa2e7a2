file(REMOVE_RECURSE
  "CMakeFiles/test_rq.dir/test_rq.c.o"
  "CMakeFiles/test_rq.dir/test_rq.c.o.d"
  "test_rq"
  "test_rq.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_rq.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
