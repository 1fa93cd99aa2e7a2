# Empty compiler generated dependencies file for test_pi.
# This may be replaced when dependencies are built.
