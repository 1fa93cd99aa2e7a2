# Empty dependencies file for test_posix_smp.
# This may be replaced when dependencies are built.
