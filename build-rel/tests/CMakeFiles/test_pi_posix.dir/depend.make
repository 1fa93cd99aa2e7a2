# Empty dependencies file for test_pi_posix.
# This may be replaced when dependencies are built.
