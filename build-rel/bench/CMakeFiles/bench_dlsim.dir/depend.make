# Empty dependencies file for bench_dlsim.
# This may be replaced when dependencies are built.
