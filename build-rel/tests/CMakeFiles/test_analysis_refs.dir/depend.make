# Empty dependencies file for test_analysis_refs.
# This may be replaced when dependencies are built.
