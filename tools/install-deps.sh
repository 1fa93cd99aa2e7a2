#!/bin/sh
# Install what libdlsched needs on a Debian/Ubuntu machine.
#   tools/install-deps.sh          build + test dependencies
#   tools/install-deps.sh --cross  also the cross compilers and qemu-user
#   tools/install-deps.sh --fuzz   also clang's libFuzzer runtime
# As root it runs apt-get; otherwise it prints the one command to run.
set -eu

PKGS="cmake make gcc clang libcunit1-dev libatomic-ops-dev doxygen libbsd-dev pkg-config valgrind"
if [ "${1:-}" = "--cross" ]; then
	PKGS="$PKGS gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf gcc-i686-linux-gnu gcc-arm-none-eabi qemu-user binutils-arm-none-eabi"
fi
if [ "${1:-}" = "--fuzz" ]; then
	PKGS="$PKGS libclang-rt-dev"
fi

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
	echo "install-deps: installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing
else
	echo "install-deps: missing packages:$missing"
	echo "run: sudo apt-get install -y$missing"
	exit 1
fi
