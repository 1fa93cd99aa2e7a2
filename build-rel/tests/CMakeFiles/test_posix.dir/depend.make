# Empty dependencies file for test_posix.
# This may be replaced when dependencies are built.
