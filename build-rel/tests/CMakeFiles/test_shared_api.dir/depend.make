# Empty dependencies file for test_shared_api.
# This may be replaced when dependencies are built.
