file(REMOVE_RECURSE
  "CMakeFiles/example_tick_rtos.dir/tick_rtos.c.o"
  "CMakeFiles/example_tick_rtos.dir/tick_rtos.c.o.d"
  "example_tick_rtos"
  "example_tick_rtos.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/example_tick_rtos.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
