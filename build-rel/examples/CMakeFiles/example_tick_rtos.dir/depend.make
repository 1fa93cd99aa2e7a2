# Empty dependencies file for example_tick_rtos.
# This may be replaced when dependencies are built.
