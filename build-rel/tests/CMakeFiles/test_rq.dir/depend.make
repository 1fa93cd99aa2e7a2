# Empty dependencies file for test_rq.
# This may be replaced when dependencies are built.
