# Empty compiler generated dependencies file for test_dlsim_phase.
# This may be replaced when dependencies are built.
