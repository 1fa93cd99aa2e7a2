# Cross build for aarch64-linux-gnu, tests run under qemu-aarch64.
# DLSCHED_CROSS_SYSROOT points at the unpacked target packages
# (tools/cross-sysroot.sh arm64 <dir>).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /usr/aarch64-linux-gnu)
if(NOT DLSCHED_CROSS_SYSROOT)
  set(DLSCHED_CROSS_SYSROOT "$ENV{DLSCHED_CROSS_SYSROOT}")
endif()
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu ${DLSCHED_CROSS_SYSROOT}
    ${DLSCHED_CROSS_SYSROOT}/usr ${DLSCHED_CROSS_SYSROOT}/usr/lib/aarch64-linux-gnu)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
