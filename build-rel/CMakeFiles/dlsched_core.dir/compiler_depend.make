# Empty compiler generated dependencies file for dlsched_core.
# This may be replaced when dependencies are built.
