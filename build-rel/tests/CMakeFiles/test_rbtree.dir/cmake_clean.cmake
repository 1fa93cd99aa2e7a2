file(REMOVE_RECURSE
  "CMakeFiles/test_rbtree.dir/test_rbtree.c.o"
  "CMakeFiles/test_rbtree.dir/test_rbtree.c.o.d"
  "test_rbtree"
  "test_rbtree.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_rbtree.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
