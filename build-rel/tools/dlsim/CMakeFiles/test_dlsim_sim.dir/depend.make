# Empty dependencies file for test_dlsim_sim.
# This may be replaced when dependencies are built.
