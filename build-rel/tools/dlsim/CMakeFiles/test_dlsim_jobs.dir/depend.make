# Empty dependencies file for test_dlsim_jobs.
# This may be replaced when dependencies are built.
