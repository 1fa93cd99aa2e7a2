# Empty dependencies file for bench_smp.
# This may be replaced when dependencies are built.
