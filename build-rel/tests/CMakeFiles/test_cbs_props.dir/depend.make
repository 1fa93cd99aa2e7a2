# Empty dependencies file for test_cbs_props.
# This may be replaced when dependencies are built.
