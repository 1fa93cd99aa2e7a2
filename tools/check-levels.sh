#!/bin/sh
# The library's source files form levels: a file calls (or takes the
# address of) only functions and data of files below it, never one that
# reaches it back. This check builds the file-level graph from the object
# files' symbols (nm: what each .o defines, what it leaves undefined) and
# fails, naming every cycle and the symbols on its edges, when two files
# reach each other. Inline functions of a header are compiled into their
# callers and do not show; a table of function pointers does (its
# relocations are undefined symbols of the file holding it).
#
# usage: tools/check-levels.sh [-g] [-l LIST] [OBJ...]
#   OBJ      an object file, or a directory searched for *.o (CMake's
#            CMakeFiles/<target>.dir; it may hold objects of sources since
#            removed, which -l avoids)
#   -l LIST  a file naming one object file per line (CMake:
#            file(GENERATE) of $<TARGET_OBJECTS:target>)
#   -g       also print the graph, one "file -> file: symbols" line per edge
# A file is named by its path below CMakeFiles/<target>.dir/ (or below the
# directory given), without .o: the source it was compiled from.
# environment: NM (default nm)
set -eu

nm=${NM:-nm}
graph=0
list=""
while [ $# -gt 0 ]; do
	case $1 in
	-g) graph=1; shift ;;
	-l) [ $# -ge 2 ] || { echo "$0: -l needs a file" >&2; exit 2; }
	    list=$2; shift 2 ;;
	*) break ;;
	esac
done
if [ $# -eq 0 ] && [ -z "$list" ]; then
	echo "usage: $0 [-g] [-l LIST] [OBJ...]" >&2
	exit 2
fi
if [ -n "$list" ] && [ ! -r "$list" ]; then
	echo "check-levels: $list: cannot read" >&2
	exit 2
fi
for arg in "$@"; do
	if [ ! -e "$arg" ]; then
		echo "check-levels: $arg: no such file or directory" >&2
		exit 2
	fi
done

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT INT TERM

# One line per symbol: "D|U file symbol".
{
	if [ -n "$list" ]; then
		grep -v '^$' "$list" | while read -r o; do
			printf '%s %s\n' "$o" "$o"
		done
	fi
	for arg in "$@"; do
		if [ -d "$arg" ]; then
			find "$arg" -name '*.o' | LC_ALL=C sort | while read -r o; do
				printf '%s %s\n' "$o" "${o#"$arg"/}"
			done
		else
			printf '%s %s\n' "$arg" "$arg"
		fi
	done
} | while read -r o name; do
	if [ ! -f "$o" ]; then
		echo "check-levels: $o: no such file" >&2
		exit 2
	fi
	name=${name#*/CMakeFiles/*.dir/}
	name=${name%.o}
	"$nm" -P "$o" | awk -v f="$name" '
		$2 == "U" || (($2 == "w" || $2 == "v") && NF < 3) { print "U", f, $1; next }
		$2 ~ /^[TDBRCGSVWA]$/ { print "D", f, $1 }'
done >"$tmp"

if [ ! -s "$tmp" ]; then
	echo "check-levels: no symbols in $*" >&2
	exit 2
fi

awk -v graph="$graph" '
$1 == "D" { def[$3] = $2; next }
$1 == "U" { use[++nu] = $2 SUBSEP $3; next }
END {
	for (i = 1; i <= nu; i++) {
		split(use[i], p, SUBSEP)
		from = p[1]; sym = p[2]
		if (!(sym in def) || def[sym] == from)
			continue
		to = def[sym]
		if (!((from, to) in edge)) {
			edge[from, to] = sym
			node[from]; node[to]
		} else if (index(" " edge[from, to] " ", " " sym " ") == 0) {
			edge[from, to] = edge[from, to] " " sym
		}
	}
	n = 0
	for (v in node)
		name[++n] = v
	# sort the names (insertion sort: a few dozen files)
	for (i = 2; i <= n; i++) {
		v = name[i]
		for (j = i - 1; j >= 1 && name[j] > v; j--)
			name[j + 1] = name[j]
		name[j + 1] = v
	}
	if (graph)
		for (i = 1; i <= n; i++)
			for (j = 1; j <= n; j++)
				if ((name[i], name[j]) in edge)
					printf "%s -> %s: %s\n", name[i], name[j], edge[name[i], name[j]]
	# reachability (Warshall), then the strongly connected groups
	for (i = 1; i <= n; i++)
		for (j = 1; j <= n; j++)
			r[i, j] = ((name[i], name[j]) in edge)
	for (k = 1; k <= n; k++)
		for (i = 1; i <= n; i++)
			if (r[i, k])
				for (j = 1; j <= n; j++)
					if (r[k, j])
						r[i, j] = 1
	cycles = 0
	for (i = 1; i <= n; i++) {
		if (done[i] || !r[i, i])
			continue
		cycles++
		members = ""
		for (j = i; j <= n; j++)
			if (r[i, j] && r[j, i]) {
				done[j] = 1
				grp[j] = cycles
				members = members (members == "" ? "" : ", ") name[j]
			}
		printf "check-levels: cycle %d: %s\n", cycles, members
		for (a = 1; a <= n; a++)
			for (b = 1; b <= n; b++)
				if (grp[a] == cycles && grp[b] == cycles &&
				    (name[a], name[b]) in edge)
					printf "  %s -> %s: %s\n", name[a], name[b], edge[name[a], name[b]]
	}
	if (cycles) {
		printf "check-levels: %d cycle(s) among %d files\n", cycles, n
		exit 1
	}
	printf "check-levels: %d files, no cycle\n", n
}' "$tmp"
