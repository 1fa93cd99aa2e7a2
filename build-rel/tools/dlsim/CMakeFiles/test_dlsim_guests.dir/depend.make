# Empty dependencies file for test_dlsim_guests.
# This may be replaced when dependencies are built.
