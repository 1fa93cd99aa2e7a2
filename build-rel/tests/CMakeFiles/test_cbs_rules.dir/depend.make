# Empty dependencies file for test_cbs_rules.
# This may be replaced when dependencies are built.
