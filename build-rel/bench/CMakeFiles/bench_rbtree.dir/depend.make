# Empty dependencies file for bench_rbtree.
# This may be replaced when dependencies are built.
