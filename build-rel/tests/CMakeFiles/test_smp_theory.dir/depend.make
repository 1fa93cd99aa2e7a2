# Empty dependencies file for test_smp_theory.
# This may be replaced when dependencies are built.
