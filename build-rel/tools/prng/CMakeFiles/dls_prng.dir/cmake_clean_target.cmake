file(REMOVE_RECURSE
  "libdls_prng.a"
)
