#!/bin/sh
# Fetch the target-architecture builds of the test dependencies (CUnit,
# libatomic_ops) from Debian's archive and unpack them into a private
# sysroot, without installing them system-wide.
#   tools/cross-sysroot.sh <debian-arch> <dir>     e.g. arm64 build/sysroot-arm64
set -eu
arch=$1
dir=$2
top=$(cd "$(dirname "$0")/.." && pwd)
stamp="$dir/.complete"
[ -f "$stamp" ] && exit 0

if ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "cross-sysroot: run as root once: dpkg --add-architecture $arch && apt-get update" >&2
		exit 1
	fi
	dpkg --add-architecture "$arch"
	"$top/tools/apt-update.sh" cross-sysroot
fi

tmp="$dir.debs"
rm -rf "$tmp" "$dir"
mkdir -p "$tmp" "$dir"
(
	cd "$tmp"
	if ! apt-get download -qq "libcunit1:$arch" "libcunit1-dev:$arch" \
		"libatomic-ops-dev:$arch" 2>/dev/null; then
		[ "$(id -u)" -eq 0 ] && "$top/tools/apt-update.sh" cross-sysroot
		apt-get download -qq "libcunit1:$arch" "libcunit1-dev:$arch" \
			"libatomic-ops-dev:$arch"
	fi
)
for deb in "$tmp"/*.deb; do
	dpkg -x "$deb" "$dir"
done
rm -rf "$tmp"
touch "$stamp"
