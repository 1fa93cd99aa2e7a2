# Empty dependencies file for dlsched_shared.
# This may be replaced when dependencies are built.
