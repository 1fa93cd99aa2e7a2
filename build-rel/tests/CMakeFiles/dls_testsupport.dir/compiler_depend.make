# Empty compiler generated dependencies file for dls_testsupport.
# This may be replaced when dependencies are built.
