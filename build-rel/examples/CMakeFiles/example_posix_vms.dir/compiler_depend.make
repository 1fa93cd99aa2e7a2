# Empty compiler generated dependencies file for example_posix_vms.
# This may be replaced when dependencies are built.
