# Empty dependencies file for test_dlsim_memory.
# This may be replaced when dependencies are built.
