# Empty dependencies file for test_misuse.
# This may be replaced when dependencies are built.
