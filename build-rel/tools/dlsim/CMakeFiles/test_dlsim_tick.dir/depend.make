# Empty dependencies file for test_dlsim_tick.
# This may be replaced when dependencies are built.
