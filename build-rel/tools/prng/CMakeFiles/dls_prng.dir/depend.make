# Empty dependencies file for dls_prng.
# This may be replaced when dependencies are built.
