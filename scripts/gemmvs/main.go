//go:build openblas

// Command gemmvs times fxgen's Sgemm against OpenBLAS's cblas_sgemm in one
// process, alternating the two in short batches on the same matrices, so
// that load from outside (other tenants of a virtual machine, clock
// changes) falls on both sides alike. It is a measuring stick only: it needs
// cgo and libopenblas-dev, and builds only with the openblas tag:
//
//	OPENBLAS_CORETYPE=SkylakeX go run -tags openblas ./scripts/gemmvs
//
// For each shape it runs -rounds rounds; a round times one batch (calls
// totalling at least -batch) of each of four contenders in rotating order:
// Go with 1 worker, OpenBLAS with 1 thread, Go with 2 workers and OpenBLAS
// with 2 threads. It prints the median GFLOP/s of each over the rounds and
// the medians of the per-round ratios, so a slow phase of the machine moves
// a ratio only when it hits one batch and not the other.
package main

/*
#cgo LDFLAGS: -lopenblas
void cblas_sgemm(int order, int transA, int transB, int m, int n, int k,
	float alpha, const float *a, int lda, const float *b, int ldb,
	float beta, float *c, int ldc);
void openblas_set_num_threads(int n);
char *openblas_get_corename(void);

#include <time.h>

static long long thread_ns(void) {
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}
*/
import "C"

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	goruntime "runtime"
	"strconv"
	"strings"
	"time"

	"github.com/fxgen/fxgen/internal/rounds"
	"github.com/fxgen/fxgen/runtime"
)

// shape is one GEMM: C[m×n] = A[m×k]·op(B); transB means B is stored n×k,
// as a linear layer stores its weights.
type shape struct {
	m, k, n int
	transB  bool
}

func (s shape) String() string {
	switch {
	case !s.transB && s.m == s.k && s.k == s.n:
		return strconv.Itoa(s.m)
	case !s.transB:
		return fmt.Sprintf("%dx%dx%d/n", s.m, s.k, s.n)
	}
	return fmt.Sprintf("%dx%dx%d", s.m, s.k, s.n)
}

// parseShape parses a shape name as String writes it: N (square), MxKxN
// (B stored n×k, as a linear layer's weights) or MxKxN/n (B stored k×n, as
// a convolution's patch matrix).
func parseShape(name string) (shape, bool) {
	dims, plain := strings.CutSuffix(name, "/n")
	var d []int
	for _, f := range strings.Split(dims, "x") {
		v, err := strconv.Atoi(f)
		if err != nil || v <= 0 {
			return shape{}, false
		}
		d = append(d, v)
	}
	switch {
	case len(d) == 1 && !plain:
		return shape{m: d[0], k: d[0], n: d[0]}, true
	case len(d) == 3:
		return shape{m: d[0], k: d[1], n: d[2], transB: !plain}, true
	}
	return shape{}, false
}

var defaultShapes = []shape{
	{256, 256, 256, false}, {512, 512, 512, false}, {1024, 1024, 1024, false}, {2048, 2048, 2048, false},
	{1, 784, 512, true}, {64, 784, 512, true}, {128, 256, 1024, true}, {3136, 576, 64, true},
}

func main() {
	nRounds := flag.Int("rounds", 11, "rounds per shape")
	batch := flag.Duration("batch", 40*time.Millisecond, "minimum time of one batch of calls")
	packed := flag.Bool("packed", false, "time fxgen's SgemmPacked (weights packed once, as generated code does) on the MxKxN shapes")
	settle := flag.Duration("settle", 300*time.Millisecond, "pause after each OpenBLAS 2-thread batch, so that its spinning threads are asleep before the next batch")
	only := flag.String("shapes", "", "comma-separated shapes to run (default the built-in list): N for N³, MxKxN for C = X·Wᵀ with W stored [N, K], MxKxN/n for C = A·B with B stored [K, N], e.g. 1024,64x784x512,64x576x1568/n")
	single := flag.Bool("single", false, "time only Go with 1 worker and OpenBLAS with 1 thread (twice the rounds in the same time)")
	cpuTime := flag.Bool("cputime", false, "with -single: time the calling thread's CPU time instead of the wall clock, so that time the thread spends descheduled by other processes on a shared machine is not counted")
	flag.Parse()
	if *cpuTime {
		if !*single {
			fmt.Fprintln(os.Stderr, "gemmvs: -cputime needs -single")
			os.Exit(2)
		}
		// Both 1-thread contenders run on the calling thread; keep it.
		goruntime.LockOSThread()
		clock = func() int64 { return int64(C.thread_ns()) }
	}
	shapes := defaultShapes
	if *only != "" {
		shapes = nil
		for _, name := range strings.Split(*only, ",") {
			s, ok := parseShape(name)
			if !ok {
				fmt.Fprintf(os.Stderr, "gemmvs: -shapes: bad shape %q\n", name)
				os.Exit(2)
			}
			shapes = append(shapes, s)
		}
	}

	fmt.Printf("# fxgen kernel tier %v; OpenBLAS core %s; GOMAXPROCS %d; per shape %d rounds, each timing a batch of ≥%v of\n",
		runtime.CurrentISA(), C.GoString(C.openblas_get_corename()), goruntime.GOMAXPROCS(0), *nRounds, *batch)
	if *single {
		fmt.Printf("# Go 1 worker and OpenBLAS 1 thread only (order rotating).\n")
	} else {
		fmt.Printf("# Go 1 worker, OpenBLAS 1 thread, Go 2 workers, OpenBLAS 2 threads (order rotating).\n")
	}
	fmt.Printf("# GFLOP/s are medians over rounds; ratios are medians of per-round ratios.\n")
	fmt.Printf("%-14s %7s %7s %7s %7s %7s %7s %7s %7s\n", "shape", "go-w1", "ob-1t", "go-w2", "ob-2t", "go/ob@1", "go/ob@2", "go-w2/w1", "ob-2t/1t")
	for _, s := range shapes {
		r := compare(s, *nRounds, *batch, *settle, *packed && s.transB, *single)
		fmt.Printf("%-14s %7.1f %7.1f %7.1f %7.1f %7.2f %7.2f %7.2f %7.2f\n", s,
			rounds.Median(r.gf[0]), rounds.Median(r.gf[1]), rounds.Median(r.gf[2]), rounds.Median(r.gf[3]),
			rounds.MedianRatio(r.gf[0], r.gf[1]), rounds.MedianRatio(r.gf[2], r.gf[3]),
			rounds.MedianRatio(r.gf[2], r.gf[0]), rounds.MedianRatio(r.gf[3], r.gf[1]))
	}
}

// clock returns the time in nanoseconds that batches are timed with: the
// wall clock, or with -cputime the calling thread's CPU time.
var clock = func() int64 { return time.Now().UnixNano() }

// result holds the per-round GFLOP/s of the four contenders: Go with 1
// worker, OpenBLAS with 1 thread, Go with 2 workers, OpenBLAS with 2 threads.
type result struct{ gf [4][]float64 }

// compare times shape s for the given number of rounds.
// With single, only the 1-thread contenders run; the others' columns stay
// empty (printed as 0).
func compare(s shape, rounds int, batch, settle time.Duration, packed, single bool) result {
	rng := rand.New(rand.NewPCG(uint64(s.m), uint64(s.n)))
	a, b, c := randFloats(rng, s.m*s.k), randFloats(rng, s.k*s.n), make([]float32, s.m*s.n)
	ldb := s.n
	if s.transB {
		ldb = s.k
	}
	var pb *runtime.PackedB
	if packed {
		pb = runtime.PackB(s.transB, s.k, s.n, b, ldb)
	}
	goCall := func() {
		if pb != nil {
			runtime.SgemmPacked(s.m, 1, a, s.k, pb, 0, c, s.n)
			return
		}
		runtime.Sgemm(false, s.transB, s.m, s.n, s.k, 1, a, s.k, b, ldb, 0, c, s.n)
	}
	tb := C.int(111) // CblasNoTrans
	if s.transB {
		tb = 112 // CblasTrans
	}
	obCall := func() {
		C.cblas_sgemm(101, 111, tb, C.int(s.m), C.int(s.n), C.int(s.k), 1,
			(*C.float)(&a[0]), C.int(s.k), (*C.float)(&b[0]), C.int(ldb), 0, (*C.float)(&c[0]), C.int(s.n))
	}
	flops := 2 * float64(s.m) * float64(s.n) * float64(s.k)
	// contender i runs with 1+i/2 threads; even i is Go, odd i OpenBLAS.
	run := func(i int) float64 {
		threads := 1 + i/2
		f := goCall
		if i%2 == 0 {
			runtime.SetWorkers(threads)
		} else {
			C.openblas_set_num_threads(C.int(threads))
			f = obCall
		}
		f() // warm
		n := 0
		t0 := clock()
		for clock()-t0 < batch.Nanoseconds() {
			f()
			n++
		}
		gf := flops * float64(n) / float64(clock()-t0)
		if i == 3 {
			// OpenBLAS's threads spin for a while after a call; let them
			// go to sleep so that they do not compete with what follows.
			time.Sleep(settle)
		}
		return gf
	}
	// The goroutine is not locked to its thread: from a locked caller every
	// hand-off to the Go worker pool goes through another thread, which
	// cost Go's 2 workers over a quarter of their speed at 256³ (1.38×
	// over 1 worker instead of 1.92×), and a service does not call the
	// runtime that way.
	var res result
	contenders := 4
	if single {
		contenders = 2
	}
	for r := range rounds {
		for j := range contenders {
			i := (r + j) % contenders
			res.gf[i] = append(res.gf[i], run(i))
		}
	}
	return res
}

func randFloats(rng *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = float32(rng.NormFloat64())
	}
	return s
}
