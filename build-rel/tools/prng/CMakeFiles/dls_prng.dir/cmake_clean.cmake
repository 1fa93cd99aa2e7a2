file(REMOVE_RECURSE
  "CMakeFiles/dls_prng.dir/prng.c.o"
  "CMakeFiles/dls_prng.dir/prng.c.o.d"
  "libdls_prng.a"
  "libdls_prng.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/dls_prng.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
