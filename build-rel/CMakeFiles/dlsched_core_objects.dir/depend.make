# Empty dependencies file for dlsched_core_objects.
# This may be replaced when dependencies are built.
