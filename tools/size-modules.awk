# Reads a GNU ld link map (-Wl,-Map) of a program linked with libdlsched's
# core and prints, per module of the library, the bytes of .text (with
# .rodata), .data and .bss the program kept:
#   module text data bss
# Modules: math128 (src/math128), rbtree (src/rbtree*.c), core (EDF, CBS,
# the bandwidth object: src/edf, src/cbs), errors (the strings of
# dls_strerror() and dls_errname(), src/error.c), smp (the global-EDF
# files, cpudl, cpumask), pi. A module the program does not
# reach prints zeros. Input sections follow "Linker script and memory
# map"; a long section name puts address, size and file on the next line.
function hex(s,   i, v) {
	v = 0
	for (i = 3; i <= length(s); i++)
		v = v * 16 + index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
	return v
}
function module(f) {
	if (f ~ /\((math128[^)]*)\)$/) return "math128"
	if (f ~ /\((rbtree[^)]*)\)$/) return "rbtree"
	if (f ~ /\((smp[^)]*|cpudl[^)]*|cpumask[^)]*)\)$/) return "smp"
	if (f ~ /\((pi[^)]*)\)$/) return "pi"
	if (f ~ /\(error\.c[^)]*\)$/) return "errors"
	return "core"
}
/^Linker script and memory map/ { on = 1; next }
!on { next }
/^ \.(text|rodata|data|bss)/ {
	kind = $1
	if (NF >= 4) { f = $4; sz = $3 } else { getline; f = $3; sz = $2 }
	if (f !~ /libdlsched[a-z_]*\.a\(/) next
	m = module(f)
	if (kind ~ /^\.(text|rodata)/) text[m] += hex(sz)
	else if (kind ~ /^\.data/) data[m] += hex(sz)
	else bss[m] += hex(sz)
}
END {
	n = split("math128 rbtree core errors smp pi", ms, " ")
	for (i = 1; i <= n; i++)
		printf "%s %d %d %d\n", ms[i], text[ms[i]], data[ms[i]], bss[ms[i]]
}
