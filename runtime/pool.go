// Fixed pool of worker goroutines shared by the runtime kernels.

package runtime

import (
	goruntime "runtime"
	"sync"
	"sync/atomic"
	"time"
)

// workerPool holds long-lived goroutines fed through one task channel, so
// that a parallel kernel call starts no goroutine.
var workerPool struct {
	once    sync.Once
	mu      sync.Mutex // guards started
	started int        // worker goroutines running (the caller is one more)
	size    atomic.Int64
	tasks   chan poolTask
}

// poolTask is one range of a Parallel call.
type poolTask struct {
	fn     func(lo, hi int)
	lo, hi int
	done   *parDone
}

// parDone counts the ranges of a Parallel call still running on workers:
// pending for the caller to poll, wg for it to block on.
type parDone struct {
	pending atomic.Int32
	wg      sync.WaitGroup
}

var parDones = sync.Pool{New: func() any { return new(parDone) }}

func poolInit() {
	workerPool.once.Do(func() {
		workerPool.tasks = make(chan poolTask, 256)
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
		t, ok := nextTask()
		if !ok {
			return
		}
		t.run()
	}
}

// poolSpin is how long, in nanoseconds, an idle worker keeps polling for
// the next task (and a caller for its workers' ranges) before it blocks;
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

// SetSpinWait sets how long an idle worker polls for new work, and a
// Parallel caller for its workers to finish, before blocking; 0 means block
// at once. Polling lets back-to-back parallel calls skip the wake-up of a
// parked thread, which takes tens of microseconds on a virtual machine
// (measured here: a 256³ Sgemm on 2 workers ran 1.16× faster than on 1
// without polling and 1.83× with it). Each worker spends at most d of CPU
// after each burst of work, yielding to other goroutines between polls.
// It returns the previous setting.
func SetSpinWait(d time.Duration) time.Duration {
	return time.Duration(poolSpin.Swap(int64(max(d, 0))))
}

// nextTask returns the next task, polling for up to the spin wait (yielding
// the processor between polls) before it blocks on the channel.
func nextTask() (poolTask, bool) {
	select {
	case t, ok := <-workerPool.tasks:
		return t, ok
	default:
	}
	if spin := time.Duration(poolSpin.Load()); spin > 0 {
		start := time.Now()
		for time.Since(start) < spin {
			select {
			case t, ok := <-workerPool.tasks:
				return t, ok
			default:
			}
			goruntime.Gosched()
		}
	}
	t, ok := <-workerPool.tasks
	return t, ok
}

func (t poolTask) run() {
	t.fn(t.lo, t.hi)
	t.done.pending.Add(-1)
	t.done.wg.Done()
}

// Parallel splits [0, n) into min(n, Workers()) contiguous ranges of
// near-equal size, calls fn(lo, hi) once per range concurrently (one range on
// the calling goroutine, the others on pool workers) and returns when all
// calls have returned. fn must not panic. Parallel may be called from inside
// fn: a caller waiting for its ranges runs queued ranges itself.
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
	w := min(n, Workers())
	if w == 1 {
		fn(0, n)
		return
	}
	done := parDones.Get().(*parDone)
	done.pending.Store(int32(w - 1))
	done.wg.Add(w - 1)
	for t := 1; t < w; t++ {
		task := poolTask{fn: fn, lo: t * n / w, hi: (t + 1) * n / w, done: done}
		select {
		case workerPool.tasks <- task:
		default: // queue full: run it here
			task.run()
		}
	}
	fn(0, n/w)
	// Run whatever is still queued (ours or others') before blocking, so that
	// nested calls cannot wait on tasks no goroutine is free to take.
	for {
		select {
		case t := <-workerPool.tasks:
			t.run()
			continue
		default:
		}
		break
	}
	// Poll for the workers' ranges before blocking: a caller parked in
	// Wait costs a thread wake-up when the last range ends. The caller
	// does not yield while it polls: on a goroutine locked to its thread
	// (runtime.LockOSThread) each yield would hand the processor to
	// another thread.
	if spin := time.Duration(poolSpin.Load()); spin > 0 && done.pending.Load() > 0 {
		start := time.Now()
		for done.pending.Load() > 0 && time.Since(start) < spin {
		}
	}
	done.wg.Wait()
	parDones.Put(done)
}
