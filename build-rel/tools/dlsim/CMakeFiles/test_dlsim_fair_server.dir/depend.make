# Empty dependencies file for test_dlsim_fair_server.
# This may be replaced when dependencies are built.
