file(REMOVE_RECURSE
  "libdlsched_posix.a"
)
