#!/bin/sh
# Install libdlsched into a staging prefix, check that every public header
# compiles alone and the guides landed in share/doc/dlsched, then build and
# run tests/consumer against it twice: with find_package(dlsched) and with
# pkg-config. Then run the installed dlsim with no FILE (the bundled example
# from share/), also after the whole prefix has moved.
set -eu
build=${1:-build}
top=$(pwd)
prefix="$top/$build/install-stage"
moved="$top/$build/install-moved"
rm -rf "$prefix" "$moved" "$build/install-lib" "$build/consumer-cmake" "$build/consumer-pc" \
	"$build/consumer-headers"

cmake -S . -B "$build/install-lib" -DCMAKE_BUILD_TYPE=Release \
	-DCMAKE_INSTALL_PREFIX="$prefix" -DDLSCHED_BUILD_TESTS=OFF \
	-DDLSCHED_BUILD_BENCH=OFF -DDLSCHED_BUILD_TOOLS=ON
cmake --build "$build/install-lib" -j2
cmake --install "$build/install-lib"

echo "== every installed header compiles on its own"
incdir=$(dirname "$(find "$prefix" -path '*/dlsched/dlsched.h' | head -n 1)")
mkdir -p "$build/consumer-headers"
for h in "$incdir"/*.h; do
	name=$(basename "$h")
	case $name in
	*_impl.h) continue ;; # not API: included by its public header
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

echo "== consumer via find_package(dlsched)"
cmake -S tests/consumer -B "$build/consumer-cmake" -DCMAKE_PREFIX_PATH="$prefix"
cmake --build "$build/consumer-cmake"
LD_LIBRARY_PATH="$prefix/lib:$prefix/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}" \
	"$build/consumer-cmake/consumer_shared"
"$build/consumer-cmake/consumer_static"

echo "== consumer via pkg-config"
pcdir=$(dirname "$(find "$prefix" -name dlsched.pc | head -n 1)")
mkdir -p "$build/consumer-pc"
PKG_CONFIG_PATH="$pcdir" cc -std=c11 -Wall -Wextra -Werror \
	tests/consumer/main.c -o "$build/consumer-pc/consumer" \
	$(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags --libs dlsched)
LD_LIBRARY_PATH="$(dirname "$pcdir")" "$build/consumer-pc/consumer"
PKG_CONFIG_PATH="$pcdir" cc -std=c11 -Wall -Wextra -Werror \
	tests/consumer/main.c -o "$build/consumer-pc/consumer-static" \
	$(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags dlsched) \
	-L"$(dirname "$pcdir")" -Wl,-Bstatic -ldlsched -Wl,-Bdynamic \
	$(PKG_CONFIG_PATH="$pcdir" pkg-config --libs-only-l --static dlsched | sed 's/-ldlsched//')
"$build/consumer-pc/consumer-static"
echo "== installed dlsim with no FILE"
test -f "$prefix/share/dlsched/examples/dlsim/mobile.json"
(cd / && "$prefix/bin/dlsim" --quiet --json "$top/$build/install-dlsim.json")
grep -q '"threads"' "$build/install-dlsim.json"
cp -R "$prefix" "$moved"
(cd / && "$moved/bin/dlsim" --check) > "$build/install-dlsim.out"
cmp "$build/install-dlsim.out" examples/dlsim/mobile.out
echo "check-install: OK"
