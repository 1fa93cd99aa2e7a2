# Empty dependencies file for dlsched_analysis.
# This may be replaced when dependencies are built.
