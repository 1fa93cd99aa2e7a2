# Empty dependencies file for test_dlsim_cli_ref.
# This may be replaced when dependencies are built.
