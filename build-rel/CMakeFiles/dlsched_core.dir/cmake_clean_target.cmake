file(REMOVE_RECURSE
  "libdlsched_core.a"
)
