# Empty dependencies file for test_dlsim_grammar.
# This may be replaced when dependencies are built.
