# Empty dependencies file for dlsim.
# This may be replaced when dependencies are built.
