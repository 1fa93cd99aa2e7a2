# Empty compiler generated dependencies file for dlsched_static.
# This may be replaced when dependencies are built.
