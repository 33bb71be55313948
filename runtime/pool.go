// Fixed pool of worker goroutines shared by the runtime kernels.

package runtime

import (
	"os"
	goruntime "runtime"
	"sync"
	"sync/atomic"
	"time"
)

// workerPool holds long-lived goroutines woken through one channel of
// jobs, so that a parallel kernel call starts no goroutine.
var workerPool struct {
	once    sync.Once
	mu      sync.Mutex // guards started
	started int        // worker goroutines running (the caller is one more)
	size    atomic.Int64
	jobs    chan *parJob
}

// parJob is one Parallel call. Its ranges are not handed to particular
// goroutines: the caller, and the workers it wakes by sending the job on
// the channel, each claim the next range not yet taken. A worker busy
// with another caller's ranges, or whose thread is slow to wake (a parked
// thread of a virtual machine can take milliseconds after an idle spell),
// leaves its range to the caller instead of holding the call up. A range
// computes the same whoever runs it.
type parJob struct {
	fn func(lo, hi int)
	n  int
	// state is ranges<<16 | next range to claim. A job left in the
	// channel by an earlier call has every range taken, or ranges of the
	// call that now uses it, which are as good to take.
	state    atomic.Uint32
	finished atomic.Int32   // ranges the workers have run to their end
	wg       sync.WaitGroup // the same, to block on
}

// maxRanges bounds a Parallel call's ranges, which state counts in 16 bits.
const maxRanges = 1<<16 - 1

var parJobs = sync.Pool{New: func() any { return new(parJob) }}

// claim takes the next range and returns its index; ok is false when
// every range is taken.
func (j *parJob) claim() (i int, ok bool) {
	for {
		s := j.state.Load()
		if s&0xffff >= s>>16 {
			return 0, false
		}
		if j.state.CompareAndSwap(s, s+1) {
			return int(s & 0xffff), true
		}
	}
}

// runRange runs range i of the job's w.
func (j *parJob) runRange(i, w int) {
	j.fn(i*j.n/w, (i+1)*j.n/w)
}

// help claims and runs ranges of the job until none is left (a worker's
// part).
func (j *parJob) help() {
	for {
		i, ok := j.claim()
		if !ok {
			return
		}
		// The call cannot end, nor the job be reused, before range i
		// does: the count of ranges is this call's.
		j.runRange(i, int(j.state.Load()>>16))
		j.finished.Add(1)
		j.wg.Done()
	}
}

func poolInit() {
	workerPool.once.Do(func() {
		// The tier was chosen from ISAEnv at start-up, before go test
		// records the environment a test reads; reading it again here,
		// at the first use of the pool, makes go test's cache tell
		// FXGEN_ISA=avx2 go test from a plain run.
		_ = os.Getenv(ISAEnv)
		workerPool.jobs = make(chan *parJob, 256)
		setWorkers(goruntime.GOMAXPROCS(0))
	})
}

// Workers returns the number of goroutines (the caller included) that
// Parallel spreads work over. It starts as GOMAXPROCS at first use.
func Workers() int {
	poolInit()
	return int(workerPool.size.Load())
}

// SetWorkers sets the number of goroutines Parallel uses, the caller
// included; n < 1 means GOMAXPROCS. Results of the runtime kernels do not
// depend on it. Extra worker goroutines are started as needed and stay idle
// when the count is lowered (polling for SetSpinWait, then blocked on a
// channel).
func SetWorkers(n int) {
	poolInit()
	if n < 1 {
		n = goruntime.GOMAXPROCS(0)
	}
	setWorkers(n)
}

func setWorkers(n int) {
	workerPool.mu.Lock()
	defer workerPool.mu.Unlock()
	for ; workerPool.started < n-1; workerPool.started++ {
		go poolWorker()
	}
	workerPool.size.Store(int64(n))
}

func poolWorker() {
	for {
		j, ok := nextJob()
		if !ok {
			return
		}
		j.help()
	}
}

// poolSpin is how long, in nanoseconds, an idle worker keeps polling for
// the next job (and a caller for its workers' ranges) before it blocks;
// see SetSpinWait.
var poolSpin atomic.Int64

func init() { poolSpin.Store(int64(DefaultSpinWait)) }

// DefaultSpinWait is the initial SetSpinWait duration. It outlasts the
// serial steps between the products of a recurrent step: with 50 µs the
// workers of an LSTM at batch 64 parked between its GEMMs and every GEMM
// paid a thread wake-up (2 workers, Xeon SPR VM: 5.38 → 3.57 ms with 200
// µs, benchstat n=5; ResNet-18 at batch 1 16.3 → 15.2 ms, DLRM at batch 1
// 15.5 → 13.6 µs).
const DefaultSpinWait = 200 * time.Microsecond

// yieldAfter is how long the pool's polling loops run before each poll
// also yields the thread (osYield). A worker that the OS woke onto the
// CPU of the caller that woke it (as a virtual machine's parked vCPUs
// often make it) would otherwise poll the caller off its CPU for the
// whole spin wait, on every call after an idle spell (calls 10 ms apart,
// 2 workers, Xeon SPR VM: MLP at batch 1 321 → 130 µs, transformer at
// batch 1 8.8 → 6.4 ms, LSTM at batch 64 7.0 → 5.6 ms). The first 25 µs
// poll without the system call, which back-to-back calls never outlast.
const yieldAfter = 25 * time.Microsecond

// SetSpinWait sets how long an idle worker polls for new work, and a
// Parallel caller for its workers to finish, before blocking; 0 means block
// at once. Polling lets back-to-back parallel calls skip the wake-up of a
// parked thread, which takes tens of microseconds on a virtual machine
// (measured here: a 256³ Sgemm on 2 workers ran 1.16× faster than on 1
// without polling and 1.83× with it). Each worker spends at most d of CPU
// after each burst of work, and holds its processor meanwhile (see
// nextJob). A longer wait serves calls that come after idle gaps on a
// virtual machine whose idle vCPUs wake slowly, at the expense of
// callers running at once, whose processors the polling workers hold
// (transformer at batch 1 on 2 workers, Xeon SPR VM, 3.5–3.7 ms a call
// back to back; a call every 10 ms: 5.3–6.4 ms a call with 200 µs,
// 3.9–5.7 ms with 1 ms; with 1 ms, two concurrent callers 5–12 % slower
// across the zoo). It returns the previous setting.
func SetSpinWait(d time.Duration) time.Duration {
	return time.Duration(poolSpin.Swap(int64(max(d, 0))))
}

// nextJob returns the next job sent to the workers, polling for up to
// the spin wait before it blocks on the channel. It does not yield the
// processor while it polls, only the CPU after yieldAfter: a worker that
// yields the processor can land in the run queue of a caller's
// processor, which never yields either, while the other processor sits
// idle, and then every call's ranges ran on the caller alone (LSTM at
// batch 1 on 2 workers, Xeon SPR VM: 160–170 µs a call became 250–400 µs
// for spells of many calls).
func nextJob() (*parJob, bool) {
	select {
	case j, ok := <-workerPool.jobs:
		return j, ok
	default:
	}
	if spin := time.Duration(poolSpin.Load()); spin > 0 {
		start := time.Now()
		for waited := time.Duration(0); waited < spin; waited = time.Since(start) {
			select {
			case j, ok := <-workerPool.jobs:
				return j, ok
			default:
			}
			if waited > yieldAfter {
				osYield()
			}
		}
	}
	j, ok := <-workerPool.jobs
	return j, ok
}

// Parallel splits [0, n) into min(n, Workers()) contiguous ranges of
// near-equal size, calls fn(lo, hi) once per range concurrently and
// returns when all calls have returned. The calling goroutine runs the
// first range and then any range no pool worker has started, so a call
// never waits for a worker that has not woken up. fn must not panic.
// Parallel may be called from inside fn: the nested call, too, waits only
// for ranges that a goroutine is running.
//
// Reference loop:
//
//	w := min(n, Workers())
//	for t := 0; t < w; t++ {
//		fn(t*n/w, (t+1)*n/w)
//	}
func Parallel(n int, fn func(lo, hi int)) {
	if n <= 0 {
		return
	}
	w := min(n, Workers(), maxRanges)
	if w == 1 {
		fn(0, n)
		return
	}
	j := parJobs.Get().(*parJob)
	j.fn, j.n = fn, n
	j.finished.Store(0)
	j.wg.Add(w - 1)
	// The caller holds range 0 from the start.
	j.state.Store(uint32(w)<<16 | 1)
	for range w - 1 {
		select {
		case workerPool.jobs <- j:
		default: // channel full: the caller claims what is left
		}
	}
	j.runRange(0, w)
	// The caller counts its own ranges here rather than in finished and
	// wg, which the workers write.
	workerRanges := int32(w - 1) // ranges left to the workers
	for {
		i, ok := j.claim()
		if !ok {
			break
		}
		j.runRange(i, w)
		workerRanges--
	}
	if workerRanges < int32(w-1) {
		j.wg.Add(int(workerRanges) - (w - 1))
	}
	// Every range is now claimed, and the workers' are running: poll for
	// them before blocking, since a caller parked in Wait costs a thread
	// wake-up when the last range ends. The caller does not yield the
	// processor while it polls (on a goroutine locked to its thread,
	// runtime.LockOSThread, each Gosched would hand it to another
	// thread), only the CPU after yieldAfter.
	if spin := time.Duration(poolSpin.Load()); spin > 0 && j.finished.Load() < workerRanges {
		start := time.Now()
		for waited := time.Duration(0); j.finished.Load() < workerRanges && waited < spin; waited = time.Since(start) {
			if waited > yieldAfter {
				osYield()
			}
		}
	}
	j.wg.Wait()
	j.fn = nil // drop the reference to the caller's closure
	parJobs.Put(j)
}
