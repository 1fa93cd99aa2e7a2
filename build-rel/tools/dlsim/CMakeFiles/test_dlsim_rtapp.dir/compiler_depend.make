# Empty compiler generated dependencies file for test_dlsim_rtapp.
# This may be replaced when dependencies are built.
