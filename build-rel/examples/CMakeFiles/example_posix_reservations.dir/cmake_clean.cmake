file(REMOVE_RECURSE
  "CMakeFiles/example_posix_reservations.dir/posix_reservations.c.o"
  "CMakeFiles/example_posix_reservations.dir/posix_reservations.c.o.d"
  "example_posix_reservations"
  "example_posix_reservations.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/example_posix_reservations.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
