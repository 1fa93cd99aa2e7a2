#----------------------------------------------------------------
# Generated CMake target import file for configuration "Release".
#----------------------------------------------------------------

# Commands may need to know the format version.
set(CMAKE_IMPORT_FILE_VERSION 1)

# Import target "dlsched::dlsched_static" for configuration "Release"
set_property(TARGET dlsched::dlsched_static APPEND PROPERTY IMPORTED_CONFIGURATIONS RELEASE)
set_target_properties(dlsched::dlsched_static PROPERTIES
  IMPORTED_LINK_INTERFACE_LANGUAGES_RELEASE "C"
  IMPORTED_LOCATION_RELEASE "${_IMPORT_PREFIX}/lib/libdlsched.a"
  )

list(APPEND _cmake_import_check_targets dlsched::dlsched_static )
list(APPEND _cmake_import_check_files_for_dlsched::dlsched_static "${_IMPORT_PREFIX}/lib/libdlsched.a" )

# Import target "dlsched::core" for configuration "Release"
set_property(TARGET dlsched::core APPEND PROPERTY IMPORTED_CONFIGURATIONS RELEASE)
set_target_properties(dlsched::core PROPERTIES
  IMPORTED_LINK_INTERFACE_LANGUAGES_RELEASE "C"
  IMPORTED_LOCATION_RELEASE "${_IMPORT_PREFIX}/lib/libdlsched_core.a"
  )

list(APPEND _cmake_import_check_targets dlsched::core )
list(APPEND _cmake_import_check_files_for_dlsched::core "${_IMPORT_PREFIX}/lib/libdlsched_core.a" )

# Import target "dlsched::analysis" for configuration "Release"
set_property(TARGET dlsched::analysis APPEND PROPERTY IMPORTED_CONFIGURATIONS RELEASE)
set_target_properties(dlsched::analysis PROPERTIES
  IMPORTED_LINK_INTERFACE_LANGUAGES_RELEASE "C"
  IMPORTED_LOCATION_RELEASE "${_IMPORT_PREFIX}/lib/libdlsched_analysis.a"
  )

list(APPEND _cmake_import_check_targets dlsched::analysis )
list(APPEND _cmake_import_check_files_for_dlsched::analysis "${_IMPORT_PREFIX}/lib/libdlsched_analysis.a" )

# Import target "dlsched::posix" for configuration "Release"
set_property(TARGET dlsched::posix APPEND PROPERTY IMPORTED_CONFIGURATIONS RELEASE)
set_target_properties(dlsched::posix PROPERTIES
  IMPORTED_LINK_INTERFACE_LANGUAGES_RELEASE "C"
  IMPORTED_LOCATION_RELEASE "${_IMPORT_PREFIX}/lib/libdlsched_posix.a"
  )

list(APPEND _cmake_import_check_targets dlsched::posix )
list(APPEND _cmake_import_check_files_for_dlsched::posix "${_IMPORT_PREFIX}/lib/libdlsched_posix.a" )

# Import target "dlsched::dlsched" for configuration "Release"
set_property(TARGET dlsched::dlsched APPEND PROPERTY IMPORTED_CONFIGURATIONS RELEASE)
set_target_properties(dlsched::dlsched PROPERTIES
  IMPORTED_LOCATION_RELEASE "${_IMPORT_PREFIX}/lib/libdlsched.so.0.1.0"
  IMPORTED_SONAME_RELEASE "libdlsched.so.0"
  )

list(APPEND _cmake_import_check_targets dlsched::dlsched )
list(APPEND _cmake_import_check_files_for_dlsched::dlsched "${_IMPORT_PREFIX}/lib/libdlsched.so.0.1.0" )

# Commands beyond this point should not need to know the version.
set(CMAKE_IMPORT_FILE_VERSION)
