
####### Expanded from @PACKAGE_INIT@ by configure_package_config_file() #######
####### Any changes to this file will be overwritten by the next CMake run ####
####### The input file was dlschedConfig.cmake.in                            ########

get_filename_component(PACKAGE_PREFIX_DIR "${CMAKE_CURRENT_LIST_DIR}/../../../" ABSOLUTE)

macro(set_and_check _var _file)
  set(${_var} "${_file}")
  if(NOT EXISTS "${_file}")
    message(FATAL_ERROR "File or directory ${_file} referenced by variable ${_var} does not exist !")
  endif()
endmacro()

macro(check_required_components _NAME)
  foreach(comp ${${_NAME}_FIND_COMPONENTS})
    if(NOT ${_NAME}_${comp}_FOUND)
      if(${_NAME}_FIND_REQUIRED_${comp})
        set(${_NAME}_FOUND FALSE)
      endif()
    endif()
  endforeach()
endmacro()

####################################################################################

include(CMakeFindDependencyMacro)
if(ON)
  set(THREADS_PREFER_PTHREAD_FLAG ON)
  find_dependency(Threads)
endif()

# libatomic_ops, looked for on this machine with the FindAtomicOps.cmake
# installed here (the static library links it)
if(ON)
  set(_dlsched_module_path "${CMAKE_MODULE_PATH}")
  set(CMAKE_MODULE_PATH "${CMAKE_CURRENT_LIST_DIR}" ${CMAKE_MODULE_PATH})
  find_dependency(AtomicOps)
  set(CMAKE_MODULE_PATH "${_dlsched_module_path}")
  unset(_dlsched_module_path)
endif()

include("${CMAKE_CURRENT_LIST_DIR}/dlschedTargets.cmake")

# Components (find_package(dlsched COMPONENTS core posix analysis)): each
# a static library, dlsched::<component>, linking what it needs (posix and
# analysis bring core). dlsched::dlsched and dlsched::dlsched_static hold
# every component built.
foreach(_dlsched_comp core posix analysis)
  if(TARGET dlsched::${_dlsched_comp})
    set(dlsched_${_dlsched_comp}_FOUND TRUE)
  else()
    set(dlsched_${_dlsched_comp}_FOUND FALSE)
  endif()
endforeach()
unset(_dlsched_comp)
check_required_components(dlsched)
