# Compares the jobs of the Cortex-M port (lines "job,NAME,INDEX,RELEASE,END"
# of its output, ns from its epoch) with the jobs dlsim predicts for the
# same workload (its --jobs CSV), given first:
#   awk -F, -v tol=NS -f tools/qemu-compare.awk dlsim-jobs.csv port-output
# Every job must be in both, with the same release, and end in the port
# no earlier than dlsim says and at most tol ns later (the port's kernel
# takes time, dlsim's takes none). A dlsim job that ends at the instant of
# a release makes the comparison ill-posed (a few ns decide the order of
# the two events on the target) and fails it. Prints one summary line;
# exits 1 on any failure, each named on stderr.
function fail(msg) { print "qemu-compare: " msg > "/dev/stderr"; bad = 1 }
FNR == NR {
	if (FNR == 1) next
	gsub(/"/, "", $1)
	k = $1 SUBSEP $2
	rel[k] = $3; end[k] = $5; want++
	released[$3] = 1
	ends[k] = $5
	next
}
$1 == "job" {
	k = $2 SUBSEP $3
	got++
	if (!(k in rel)) { fail("job " $2 " " $3 " ended on the target, not in dlsim"); next }
	seen[k] = 1
	if ($4 != rel[k]) fail("job " $2 " " $3 ": released at " $4 " on the target, " rel[k] " in dlsim")
	d = $5 - end[k]
	if (d < 0 || d > tol)
		fail("job " $2 " " $3 ": ends at " $5 " on the target, " end[k] " in dlsim (" d " ns)")
	if (d > maxd) { maxd = d; maxk = $2 " " $3 }
	sum += d
}
END {
	for (k in rel) {
		split(k, p, SUBSEP)
		if (!(k in seen)) fail("job " p[1] " " p[2] " ended in dlsim, not on the target")
		if (ends[k] in released) fail("job " p[1] " " p[2] " ends at a release instant (" ends[k] "): ill-posed")
	}
	printf "qemu-compare: %d jobs in dlsim, %d on the target; end lag max %d ns (%s), mean %d ns, tolerance %d ns\n", \
		want, got, maxd, maxk, got ? sum / got : 0, tol
	exit bad
}
