# Empty dependencies file for test_cpudl.
# This may be replaced when dependencies are built.
