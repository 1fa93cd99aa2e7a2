# Empty compiler generated dependencies file for test_dlsim_json.
# This may be replaced when dependencies are built.
