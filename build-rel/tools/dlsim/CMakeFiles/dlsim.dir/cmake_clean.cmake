file(REMOVE_RECURSE
  "CMakeFiles/dlsim.dir/datadir.c.o"
  "CMakeFiles/dlsim.dir/datadir.c.o.d"
  "CMakeFiles/dlsim.dir/main.c.o"
  "CMakeFiles/dlsim.dir/main.c.o.d"
  "dlsim"
  "dlsim.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/dlsim.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
