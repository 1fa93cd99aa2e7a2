# Empty compiler generated dependencies file for test_cbs.
# This may be replaced when dependencies are built.
