# Empty dependencies file for test_dlsim_loops.
# This may be replaced when dependencies are built.
