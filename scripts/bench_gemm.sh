#!/usr/bin/env bash
# Side-by-side GEMM benchmark: fxgen's Go Sgemm against OpenBLAS cblas_sgemm.
#
# Run by hand from the repository root: scripts/bench_gemm.sh [COUNT]
# It is a measuring stick only; nothing in the Go build or tests needs it.
# It installs libopenblas-dev with apt-get when the library is missing,
# compiles scripts/openblas_bench.c with gcc, and then COUNT times (default
# 5) runs it with 1 and 2 threads, both with OPENBLAS_CORETYPE=SkylakeX and
# as installed (core detected by OpenBLAS itself), followed by GOCOUNT
# (default 3) passes of the Go benchmarks: OpenBLAS reports the median of
# five timed runs per round, and a single 0.5 s Go sample is far more exposed
# to transient load. Interleaving the rounds spreads any background load
# over both sides. It prints a table of the GFLOP/s medians over all samples.
set -euo pipefail

count=${1:-5}
gocount=${GOCOUNT:-3} # timed Go runs per round, as OpenBLAS's median of 5 runs
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! { [ -e /usr/include/cblas.h ] || [ -e /usr/include/x86_64-linux-gnu/cblas.h ] || ls /usr/include/*/cblas*.h >/dev/null 2>&1; } ||
	! ldconfig -p | grep -q libopenblas; then
	echo "installing libopenblas-dev" >&2
	apt-get update -qq && apt-get install -y -qq libopenblas-dev >/dev/null
fi
gcc -O2 -o "$tmp/openblas_bench" "$root/scripts/openblas_bench.c" -lopenblas

run_ob() { # label threads [env...]
	local label=$1 threads=$2
	shift 2
	env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OPENBLAS_NUM_THREADS="$threads" "$@" \
		"$tmp/openblas_bench" "$threads" 1 | tee -a /dev/stderr |
		awk -v l="$label" '/^#/ {next} {print l, $1, $2}' >>"$tmp/results"
}
: >"$tmp/results"
(cd "$root" && go test -c -o "$tmp/runtime.test" ./runtime/)
for round in $(seq "$count"); do
	echo "round $round/$count" >&2
	run_ob skx1 1 OPENBLAS_CORETYPE=SkylakeX
	run_ob skx2 2 OPENBLAS_CORETYPE=SkylakeX
	run_ob inst1 1
	run_ob inst2 2
	# BenchmarkSgemm/1024/w1-2  ...  148.6 GFLOP/s  ->  go1 1024 148.6
	(cd "$root/runtime" && "$tmp/runtime.test" -test.run '^$' -test.bench '^BenchmarkSgemm(Packed)?$' -test.benchtime 0.5s -test.count "$gocount") |
		tee -a /dev/stderr | awk '/GFLOP\/s/ {
			split($1, p, "/"); sub(/-[0-9]+$/, "", p[3]); w = substr(p[3], 2)
			pre = (p[1] == "BenchmarkSgemmPacked") ? "pk" : "go"
			for (i = 2; i <= NF; i++) if ($(i+1) == "GFLOP/s") v = $i
			print pre w, p[2], v
		}' >>"$tmp/results"
done

table() { # median|max
	awk -v mode="$1" '
{ key = $1 SUBSEP $2; vals[key] = vals[key] " " $3; if (!($2 in seen)) { seen[$2] = 1; order[n++] = $2 } }
function agg(s,   a, k, i, j, t) {
	k = split(s, a, " "); if (k == 0) return "-"
	for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
	if (mode == "max") return a[k]
	return (k % 2) ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
}
function get(c, s) { return ((c SUBSEP s) in vals) ? agg(vals[c SUBSEP s]) : "-" }
function ratio(x, y) { return (x == "-" || y == "-" || y + 0 == 0) ? "-" : sprintf("%.2f", x / y) }
END {
	printf "%-14s %7s %7s %7s %7s %7s %7s %7s %7s %7s %7s %6s %6s\n", "shape (" mode ")", "go-w1", "go-w2", "pk-w1", "pk-w2",
		"skx-1t", "skx-2t", "inst-1t", "inst-2t", "w1/skx", "pk/skx", "w2/w1", "w1/169"
	for (i = 0; i < n; i++) {
		s = order[i]
		g1 = get("go1", s); g2 = get("go2", s); p1 = get("pk1", s); p2 = get("pk2", s)
		o1 = get("skx1", s); o2 = get("skx2", s); i1 = get("inst1", s); i2 = get("inst2", s)
		best1 = (p1 != "-" && p1 + 0 > g1 + 0) ? p1 : g1
		printf "%-14s %7s %7s %7s %7s %7s %7s %7s %7s %7s %7s %6s %6s\n", s, g1, g2, p1, p2, o1, o2, i1, i2,
			ratio(g1, o1), ratio(p1, o1), ratio(g2, g1), ratio(best1, 169)
	}
}' "$tmp/results"
}
table median
echo
table max
echo "GFLOP/s over $count interleaved rounds (median, then best round). go = Sgemm, pk = SgemmPacked with W"
echo "packed once; MxKxN shapes are C = X·Wᵀ. w1/skx: Go 1 worker over OpenBLAS SkylakeX 1 thread;"
echo "w2/w1: 2-worker scaling; w1/169: best 1-worker Go figure as a fraction of 169 GFLOP/s."
