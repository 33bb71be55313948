// Fixed pool of worker goroutines shared by the runtime kernels.

package runtime

import (
	goruntime "runtime"
	"sync"
	"sync/atomic"
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
	wg     *sync.WaitGroup
}

var waitGroups = sync.Pool{New: func() any { return new(sync.WaitGroup) }}

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
// depend on it. Extra worker goroutines are started as needed and stay idle,
// blocked on a channel, when the count is lowered.
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
	for t := range workerPool.tasks {
		t.run()
	}
}

func (t poolTask) run() {
	t.fn(t.lo, t.hi)
	t.wg.Done()
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
	wg := waitGroups.Get().(*sync.WaitGroup)
	wg.Add(w - 1)
	for t := 1; t < w; t++ {
		task := poolTask{fn: fn, lo: t * n / w, hi: (t + 1) * n / w, wg: wg}
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
	wg.Wait()
	waitGroups.Put(wg)
}
