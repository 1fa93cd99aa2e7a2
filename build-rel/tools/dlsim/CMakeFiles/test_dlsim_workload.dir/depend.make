# Empty dependencies file for test_dlsim_workload.
# This may be replaced when dependencies are built.
