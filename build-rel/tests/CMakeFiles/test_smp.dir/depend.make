# Empty dependencies file for test_smp.
# This may be replaced when dependencies are built.
