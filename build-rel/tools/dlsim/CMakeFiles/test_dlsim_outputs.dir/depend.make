# Empty dependencies file for test_dlsim_outputs.
# This may be replaced when dependencies are built.
