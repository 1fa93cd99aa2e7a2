# Empty dependencies file for test_dlsim_servers.
# This may be replaced when dependencies are built.
