# Empty dependencies file for dlsim_core.
# This may be replaced when dependencies are built.
