# Empty compiler generated dependencies file for bench_sched_step.
# This may be replaced when dependencies are built.
