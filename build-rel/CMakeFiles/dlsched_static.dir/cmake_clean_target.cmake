file(REMOVE_RECURSE
  "libdlsched.a"
)
