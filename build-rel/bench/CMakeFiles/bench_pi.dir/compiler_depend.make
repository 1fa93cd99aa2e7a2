# Empty compiler generated dependencies file for bench_pi.
# This may be replaced when dependencies are built.
