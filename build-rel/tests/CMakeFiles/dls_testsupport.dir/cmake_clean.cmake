file(REMOVE_RECURSE
  "CMakeFiles/dls_testsupport.dir/support/dls_ref_edf.c.o"
  "CMakeFiles/dls_testsupport.dir/support/dls_ref_edf.c.o.d"
  "CMakeFiles/dls_testsupport.dir/support/dls_test.c.o"
  "CMakeFiles/dls_testsupport.dir/support/dls_test.c.o.d"
  "CMakeFiles/dls_testsupport.dir/support/dls_test_proc.c.o"
  "CMakeFiles/dls_testsupport.dir/support/dls_test_proc.c.o.d"
  "CMakeFiles/dls_testsupport.dir/support/fake_platform.c.o"
  "CMakeFiles/dls_testsupport.dir/support/fake_platform.c.o.d"
  "libdls_testsupport.a"
  "libdls_testsupport.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/dls_testsupport.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
