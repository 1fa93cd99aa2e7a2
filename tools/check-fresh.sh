#!/bin/sh
# The two-command contract on a fresh machine: build a minimal Debian root
# (debootstrap, with nothing but `make` added), put a clean clone of this
# repository in it, and run there what a new user and CI run:
#   make demo; make check; make check-cross; make check-fuzz (short)
# Every package the project needs must come from tools/install-deps.sh:
# this is the check that a package installed by hand on the host, or pulled
# in as a Recommends, hides nothing.
#   tools/check-fresh.sh [build-root] [targets...]
# Needs root (chroot, mounts) and the Debian archive the host's apt uses.
set -eu
build=${1:-build}
shift || true
targets=${*:-check check-cross}
top=$(pwd)
root="$top/$build/fresh-root"

if [ "$(id -u)" -ne 0 ]; then
	echo "check-fresh: needs root (debootstrap and chroot)" >&2
	exit 1
fi
if ! command -v debootstrap >/dev/null 2>&1; then
	"$top/tools/apt-update.sh" check-fresh
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap
fi

# The archive and release the host's apt already uses.
mirror=$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -v security | head -n 1)
[ -n "$mirror" ] || mirror=$(awk '$1 == "deb" && $2 !~ /security/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null)
suite=$(. /etc/os-release && echo "$VERSION_CODENAME")
if [ -z "$mirror" ] || [ -z "$suite" ]; then
	echo "check-fresh: cannot tell which Debian archive the host uses" >&2
	exit 1
fi

cleanup() {
	for m in proc dev/pts dev; do
		mountpoint -q "$root/$m" 2>/dev/null && umount -l "$root/$m"
	done
	return 0
}
trap cleanup EXIT INT TERM

# The debootstrapped root is kept as a tarball and unpacked afresh on every
# run, so that packages installed by an earlier run never hide a missing
# install step.
base="$top/$build/fresh-base-$suite.tar"
cleanup
rm -rf "$root"
if [ ! -f "$base" ]; then
	echo "== debootstrap $suite (minbase + make)"
	debootstrap --variant=minbase --include=make "$suite" "$root" "$mirror" >"$top/$build/fresh-debootstrap.log" 2>&1 ||
		{ tail -n 20 "$top/$build/fresh-debootstrap.log" >&2; exit 1; }
	tar -C "$root" -cf "$base.tmp" . && mv "$base.tmp" "$base"
else
	mkdir -p "$root"
	tar -C "$root" -xf "$base"
fi

rm -rf "$root/src"
git clone -q "$top" "$root/src"
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"

for t in $targets; do
	echo "== fresh root: make $t"
	chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		FUZZ_SECONDS="${FUZZ_SECONDS:-10}" DLS_TEST_SCALE="${DLS_TEST_SCALE:-10}" \
		sh -c "cd /src && make $t"
done
echo "check-fresh: $targets passed on a fresh $suite root"
