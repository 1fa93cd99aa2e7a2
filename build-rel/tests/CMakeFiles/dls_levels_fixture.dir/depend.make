# Empty dependencies file for dls_levels_fixture.
# This may be replaced when dependencies are built.
