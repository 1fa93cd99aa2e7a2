file(REMOVE_RECURSE
  "CMakeFiles/bench_rbtree.dir/rbtree.c.o"
  "CMakeFiles/bench_rbtree.dir/rbtree.c.o.d"
  "bench_rbtree"
  "bench_rbtree.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/bench_rbtree.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
