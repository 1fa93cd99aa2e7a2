# Empty compiler generated dependencies file for bench_posix.
# This may be replaced when dependencies are built.
