# Empty compiler generated dependencies file for test_common.
# This may be replaced when dependencies are built.
