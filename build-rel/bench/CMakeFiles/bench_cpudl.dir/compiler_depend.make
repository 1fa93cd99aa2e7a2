# Empty compiler generated dependencies file for bench_cpudl.
# This may be replaced when dependencies are built.
