# Empty dependencies file for dlsched_analysis_objects.
# This may be replaced when dependencies are built.
