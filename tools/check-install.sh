#!/bin/sh
# Install libdlsched the way a packager does, with the prefix given at
# install time (cmake --install --prefix), not at configure time; check that
# every public header compiles alone, the guides landed in share/doc/dlsched
# and the package files name no path of this machine (the targets file, the
# pkg-config file); then build and run tests/consumer against it with
# find_package(dlsched) and with pkg-config, and each component's program
# (tests/consumer/<component>.c) against that component alone, by
# find_package(dlsched COMPONENTS <component>) and by dlsched-<component>.pc
# (with the whole component archive linked in, so a reference from one
# component to another it does not require fails the link); run the
# installed dlsim with no FILE (the bundled example from share/). Then move
# the whole prefix and do it all again from the new place.
set -eu
build=${1:-build}
top=$(pwd)
prefix="$top/$build/install-stage"
moved="$top/$build/install-moved"
rm -rf "$prefix" "$moved" "$build/install-lib" "$build/consumer-cmake" "$build/consumer-pc" \
	"$build/consumer-headers" "$build"/consumer-cmake-*
components="core posix analysis"

# configured for another prefix: nothing may keep it
cmake -S . -B "$build/install-lib" -DCMAKE_BUILD_TYPE=Release \
	-DCMAKE_INSTALL_PREFIX=/nonexistent/configure-time-prefix -DDLSCHED_BUILD_TESTS=OFF \
	-DDLSCHED_BUILD_BENCH=OFF -DDLSCHED_BUILD_TOOLS=ON
cmake --build "$build/install-lib" -j2
cmake --install "$build/install-lib" --prefix "$prefix"

echo "== every installed header compiles on its own"
incdir=$(dirname "$(find "$prefix" -path '*/dlsched/dlsched.h' | head -n 1)")
mkdir -p "$build/consumer-headers" "$build"/consumer-cmake-*
for h in "$incdir"/*.h; do
	name=$(basename "$h")
	case $name in
	*_impl.h | cpudl.h) # internal: stays in src/
		echo "check-install: <dlsched/$name> is internal and must not be installed" >&2
		exit 1 ;;
	esac
	printf '#include <dlsched/%s>\n' "$name" >"$build/consumer-headers/inc.c"
	cc -std=c11 -Wall -Wextra -Werror -I"$(dirname "$incdir")" \
		-c "$build/consumer-headers/inc.c" -o "$build/consumer-headers/inc.o" ||
		{ echo "check-install: <dlsched/$name> does not compile alone" >&2; exit 1; }
done

echo "== guides in share/doc/dlsched"
for f in docs/*.md README.md LICENSE; do
	if ! cmp -s "$f" "$prefix/share/doc/dlsched/$(basename "$f")"; then
		echo "check-install: $f is not installed in $prefix/share/doc/dlsched" >&2
		exit 1
	fi
done

echo "== package files name no path of this machine"
cmakedir=$(dirname "$(find "$prefix" -name dlschedConfig.cmake | head -n 1)")
pcfile=$(find "$prefix" -name dlsched.pc | head -n 1)
pcfiles="$pcfile"
for comp in $components; do
	f="$(dirname "$pcfile")/dlsched-$comp.pc"
	test -f "$f" || { echo "check-install: $f is not installed" >&2; exit 1; }
	pcfiles="$pcfiles $f"
done
# every absolute path in them ("/" alone is CMake's test for the root prefix)
# shellcheck disable=SC2086
if grep -n -E '(^|[" ;=(])/[^"]' "$cmakedir"/dlsched*.cmake $pcfiles; then
	echo "check-install: an installed package file names an absolute path (above)" >&2
	exit 1
fi
# shellcheck disable=SC2086
if grep -n -e configure-time-prefix -e "$top" "$cmakedir"/*.cmake $pcfiles; then
	echo "check-install: an installed package file names the build's paths (above)" >&2
	exit 1
fi
test -f "$cmakedir/FindAtomicOps.cmake"

# consume PREFIX TAG: build and run tests/consumer against PREFIX
consume() {
	p=$1
	tag=$2
	echo "== consumer via find_package(dlsched) from $p"
	rm -rf "$build/consumer-cmake-$tag"
	cmake -S tests/consumer -B "$build/consumer-cmake-$tag" -DCMAKE_PREFIX_PATH="$p"
	cmake --build "$build/consumer-cmake-$tag"
	pcdir=$(dirname "$(find "$p" -name dlsched.pc | head -n 1)")
	libdir=$(dirname "$pcdir")
	LD_LIBRARY_PATH="$libdir:${LD_LIBRARY_PATH:-}" "$build/consumer-cmake-$tag/consumer_shared"
	"$build/consumer-cmake-$tag/consumer_static"

	echo "== consumer via pkg-config from $p"
	# the .pc finds its prefix from where it lies
	test "$(PKG_CONFIG_PATH="$pcdir" pkg-config --variable=includedir dlsched)" -ef \
		"$p/include" || { echo "check-install: dlsched.pc does not point into $p" >&2; exit 1; }
	mkdir -p "$build/consumer-pc"
	PKG_CONFIG_PATH="$pcdir" cc -std=c11 -Wall -Wextra -Werror \
		tests/consumer/main.c -o "$build/consumer-pc/consumer-$tag" \
		$(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags --libs dlsched)
	LD_LIBRARY_PATH="$libdir" "$build/consumer-pc/consumer-$tag"
	PKG_CONFIG_PATH="$pcdir" cc -std=c11 -Wall -Wextra -Werror \
		tests/consumer/main.c -o "$build/consumer-pc/consumer-static-$tag" \
		$(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags dlsched) \
		-L"$libdir" -Wl,-Bstatic -ldlsched -Wl,-Bdynamic \
		$(PKG_CONFIG_PATH="$pcdir" pkg-config --libs-only-l --static dlsched | sed 's/-ldlsched//')
	"$build/consumer-pc/consumer-static-$tag"

	for comp in $components; do
		echo "== the $comp component alone via find_package from $p"
		rm -rf "$build/consumer-cmake-$tag-$comp"
		cmake -S tests/consumer -B "$build/consumer-cmake-$tag-$comp" \
			-DCMAKE_PREFIX_PATH="$p" -DDLSCHED_COMPONENT="$comp"
		cmake --build "$build/consumer-cmake-$tag-$comp"
		"$build/consumer-cmake-$tag-$comp/consumer_$comp"

		echo "== the $comp component alone via dlsched-$comp.pc from $p"
		libs=$(PKG_CONFIG_PATH="$pcdir" pkg-config --libs "dlsched-$comp")
		case " $libs " in
		*" -ldlsched "*) echo "check-install: dlsched-$comp.pc links the whole library" >&2; exit 1 ;;
		esac
		# shellcheck disable=SC2046
		PKG_CONFIG_PATH="$pcdir" cc -std=c11 -Wall -Wextra -Werror \
			"tests/consumer/$comp.c" -o "$build/consumer-pc/consumer-$comp-$tag" \
			$(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags "dlsched-$comp") \
			$(echo "$libs" | sed "s/-ldlsched_$comp/-Wl,--whole-archive -ldlsched_$comp -Wl,--no-whole-archive/")
		"$build/consumer-pc/consumer-$comp-$tag"
	done
}

consume "$prefix" stage
echo "== installed dlsim with no FILE"
test -f "$prefix/share/dlsched/examples/dlsim/mobile.json"
(cd / && "$prefix/bin/dlsim" --quiet --json "$top/$build/install-dlsim.json")
grep -q '"threads"' "$build/install-dlsim.json"

echo "== the same after moving the prefix"
mv "$prefix" "$moved"
consume "$moved" moved
(cd / && "$moved/bin/dlsim" --check) > "$build/install-dlsim.out"
cmp "$build/install-dlsim.out" examples/dlsim/mobile.out
echo "check-install: OK"
