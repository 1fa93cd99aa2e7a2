# Empty dependencies file for test_grub.
# This may be replaced when dependencies are built.
