# Empty dependencies file for test_cpumask.
# This may be replaced when dependencies are built.
