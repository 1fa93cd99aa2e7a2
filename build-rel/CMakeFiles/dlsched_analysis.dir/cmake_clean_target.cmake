file(REMOVE_RECURSE
  "libdlsched_analysis.a"
)
