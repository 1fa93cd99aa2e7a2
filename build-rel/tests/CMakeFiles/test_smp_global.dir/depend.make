# Empty dependencies file for test_smp_global.
# This may be replaced when dependencies are built.
