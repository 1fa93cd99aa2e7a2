# Empty dependencies file for bench_math128.
# This may be replaced when dependencies are built.
