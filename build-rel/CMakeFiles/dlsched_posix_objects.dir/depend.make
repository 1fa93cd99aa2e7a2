# Empty dependencies file for dlsched_posix_objects.
# This may be replaced when dependencies are built.
