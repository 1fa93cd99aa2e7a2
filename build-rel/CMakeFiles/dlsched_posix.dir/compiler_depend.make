# Empty compiler generated dependencies file for dlsched_posix.
# This may be replaced when dependencies are built.
