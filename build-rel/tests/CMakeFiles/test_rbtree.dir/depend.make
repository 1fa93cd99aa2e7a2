# Empty dependencies file for test_rbtree.
# This may be replaced when dependencies are built.
