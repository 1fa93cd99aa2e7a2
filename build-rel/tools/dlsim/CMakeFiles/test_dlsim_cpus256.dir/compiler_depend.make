# Empty compiler generated dependencies file for test_dlsim_cpus256.
# This may be replaced when dependencies are built.
