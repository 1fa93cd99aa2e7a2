# FindAtomicOps: libatomic_ops (https://github.com/ivmai/libatomic_ops), the
# atomics libdlsched's platform layer uses when it is present.
#
# Sets ATOMIC_OPS_INCLUDE_DIR (atomic_ops.h), ATOMIC_OPS_LIBRARY, AtomicOps_FOUND
# (both found) and the imported target AtomicOps::AtomicOps. The build uses
# it, and the dlsched package installs it beside dlschedConfig.cmake, so a
# consumer's find_package(dlsched) looks for the library on its own machine
# instead of the path it had where libdlsched was built.
find_path(ATOMIC_OPS_INCLUDE_DIR atomic_ops.h)
find_library(ATOMIC_OPS_LIBRARY atomic_ops)
mark_as_advanced(ATOMIC_OPS_INCLUDE_DIR ATOMIC_OPS_LIBRARY)

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(AtomicOps
  REQUIRED_VARS ATOMIC_OPS_LIBRARY ATOMIC_OPS_INCLUDE_DIR)

if(AtomicOps_FOUND AND NOT TARGET AtomicOps::AtomicOps)
  add_library(AtomicOps::AtomicOps UNKNOWN IMPORTED)
  set_target_properties(AtomicOps::AtomicOps PROPERTIES
    IMPORTED_LOCATION "${ATOMIC_OPS_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${ATOMIC_OPS_INCLUDE_DIR}")
endif()
