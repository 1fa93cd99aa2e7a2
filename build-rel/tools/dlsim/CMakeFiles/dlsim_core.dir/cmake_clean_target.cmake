file(REMOVE_RECURSE
  "libdlsim_core.a"
)
