# Empty dependencies file for test_math128.
# This may be replaced when dependencies are built.
