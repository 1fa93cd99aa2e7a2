# Empty dependencies file for test_pi_sched.
# This may be replaced when dependencies are built.
