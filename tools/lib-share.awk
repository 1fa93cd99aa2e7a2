# Reads a GNU ld link map (-Wl,-Map) and prints "CODE UNWIND": the bytes of
# .text, .rodata, .data and .bss, and of .eh_frame, that came from
# libdlsched.a. Input sections follow "Linker script and memory map"; a
# long section name puts its address, size and file on the next line.
function hex(s,   i, v) {
	v = 0
	for (i = 3; i <= length(s); i++)
		v = v * 16 + index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
	return v
}
/^Linker script and memory map/ { on = 1; next }
!on { next }
/^ \.(text|rodata|data|bss|eh_frame)/ {
	eh = $1 ~ /^\.eh_frame/
	if (NF >= 4) { f = $4; sz = $3 } else { getline; f = $3; sz = $2 }
	if (f !~ /libdlsched\.a\(/) next
	if (eh) unwind += hex(sz); else total += hex(sz)
}
END { printf "%d %d", total, unwind }
