# Cross build for arm-linux-gnueabihf, tests run under qemu-arm.
# DLSCHED_CROSS_SYSROOT points at the unpacked target packages
# (tools/cross-sysroot.sh armhf <dir>).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR armhf)
set(CMAKE_C_COMPILER arm-linux-gnueabihf-gcc)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-arm -L /usr/arm-linux-gnueabihf)
if(NOT DLSCHED_CROSS_SYSROOT)
  set(DLSCHED_CROSS_SYSROOT "$ENV{DLSCHED_CROSS_SYSROOT}")
endif()
set(CMAKE_FIND_ROOT_PATH /usr/arm-linux-gnueabihf ${DLSCHED_CROSS_SYSROOT}
    ${DLSCHED_CROSS_SYSROOT}/usr ${DLSCHED_CROSS_SYSROOT}/usr/lib/arm-linux-gnueabihf)
set(CMAKE_LIBRARY_ARCHITECTURE arm-linux-gnueabihf)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
