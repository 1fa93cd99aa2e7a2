# Empty compiler generated dependencies file for example_posix_reservations.
# This may be replaced when dependencies are built.
