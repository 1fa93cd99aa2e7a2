# Empty compiler generated dependencies file for test_dlsim_timing.
# This may be replaced when dependencies are built.
