# Empty compiler generated dependencies file for test_dlsim_sweep.
# This may be replaced when dependencies are built.
