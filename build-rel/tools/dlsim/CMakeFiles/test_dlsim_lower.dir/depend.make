# Empty dependencies file for test_dlsim_lower.
# This may be replaced when dependencies are built.
