file(REMOVE_RECURSE
  "libdls_testsupport.a"
)
