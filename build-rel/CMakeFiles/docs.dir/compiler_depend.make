# Empty custom commands generated dependencies file for docs.
# This may be replaced when dependencies are built.
