// Tests of the worker pool: Parallel, Workers and SetWorkers.

package runtime

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestParallelCoversRange(t *testing.T) { forEachISA(t, testParallelCoversRange) }

func testParallelCoversRange(t *testing.T) {
	saved := Workers()
	defer SetWorkers(saved)
	for _, w := range []int{1, 2, 3, 8} {
		SetWorkers(w)
		if got := Workers(); got != w {
			t.Fatalf("Workers() = %d after SetWorkers(%d)", got, w)
		}
		for _, n := range []int{0, 1, 2, 3, 7, 100} {
			hits := make([]int32, n)
			var calls atomic.Int32
			Parallel(n, func(lo, hi int) {
				calls.Add(1)
				if lo >= hi {
					t.Errorf("empty range [%d, %d)", lo, hi)
				}
				for i := lo; i < hi; i++ {
					atomic.AddInt32(&hits[i], 1)
				}
			})
			for i, h := range hits {
				if h != 1 {
					t.Fatalf("w=%d n=%d: index %d covered %d times", w, n, i, h)
				}
			}
			if want := min(n, w); int(calls.Load()) != want {
				t.Fatalf("w=%d n=%d: %d calls, want %d", w, n, calls.Load(), want)
			}
		}
	}
}

func TestParallelNested(t *testing.T) { forEachISA(t, testParallelNested) }

func testParallelNested(t *testing.T) {
	saved := Workers()
	defer SetWorkers(saved)
	SetWorkers(2)
	var total atomic.Int64
	Parallel(8, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			Parallel(16, func(lo, hi int) {
				Parallel(hi-lo, func(a, b int) { total.Add(int64(b - a)) })
			})
		}
	})
	if total.Load() != 8*16 {
		t.Fatalf("nested Parallel counted %d, want %d", total.Load(), 8*16)
	}
}

// TestParallelConcurrentCallers runs Parallel from many goroutines at
// once, nested and not, with ranges that finish at different times, so
// that workers claim ranges of several calls and find, in the channel,
// jobs of calls that have already returned: every index of every call
// must be covered exactly once.
func TestParallelConcurrentCallers(t *testing.T) {
	saved := Workers()
	defer SetWorkers(saved)
	for _, w := range []int{2, 3} {
		SetWorkers(w)
		var wg sync.WaitGroup
		for g := range 6 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for call := range 300 {
					n := 1 + (g*7+call)%11
					hits := make([]atomic.Int32, n)
					Parallel(n, func(lo, hi int) {
						for i := lo; i < hi; i++ {
							hits[i].Add(1)
						}
						if call%5 == 0 {
							var inner atomic.Int32
							Parallel(3, func(a, b int) { inner.Add(int32(b - a)) })
							if inner.Load() != 3 {
								t.Errorf("nested call covered %d of 3", inner.Load())
							}
						}
						if lo%3 == 1 {
							time.Sleep(time.Microsecond)
						}
					})
					for i := range hits {
						if h := hits[i].Load(); h != 1 {
							t.Errorf("w=%d goroutine %d call %d: index %d of %d covered %d times", w, g, call, i, n, h)
							return
						}
					}
				}
			}()
		}
		wg.Wait()
	}
}

// TestParallelWithWorkersBusy checks that a call completes while every
// pool worker is held inside another call's range: its caller runs the
// ranges itself instead of waiting for a worker.
func TestParallelWithWorkersBusy(t *testing.T) {
	saved := Workers()
	defer SetWorkers(saved)
	workerPool.mu.Lock()
	workers := workerPool.started
	workerPool.mu.Unlock()
	// One range for each pool goroutine and one for the blocked caller.
	SetWorkers(workers + 1)
	release := make(chan struct{})
	var held atomic.Int32
	blocked := make(chan struct{})
	go func() {
		defer close(blocked)
		Parallel(workers+1, func(lo, hi int) {
			held.Add(1)
			<-release
		})
	}()
	deadline := time.Now().Add(10 * time.Second)
	for held.Load() < int32(workers+1) {
		if time.Now().After(deadline) {
			close(release)
			t.Fatalf("only %d of %d ranges started", held.Load(), workers+1)
		}
		time.Sleep(time.Millisecond)
	}
	SetWorkers(2)
	var hits [64]atomic.Int32
	done := make(chan struct{})
	go func() {
		defer close(done)
		Parallel(len(hits), func(lo, hi int) {
			for i := lo; i < hi; i++ {
				hits[i].Add(1)
			}
		})
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		close(release)
		t.Fatal("Parallel waited for a worker busy in another call")
	}
	for i := range hits {
		if n := hits[i].Load(); n != 1 {
			t.Errorf("index %d covered %d times", i, n)
		}
	}
	close(release)
	<-blocked
}

func TestSetWorkersDefault(t *testing.T) { forEachISA(t, testSetWorkersDefault) }

func testSetWorkersDefault(t *testing.T) {
	saved := Workers()
	defer SetWorkers(saved)
	SetWorkers(0)
	if Workers() < 1 {
		t.Fatalf("Workers() = %d after SetWorkers(0)", Workers())
	}
}

// BenchmarkParallel measures the overhead of one Parallel call over two
// workers with an empty body.
func BenchmarkParallel(b *testing.B) {
	saved := Workers()
	defer SetWorkers(saved)
	SetWorkers(2)
	var sink atomic.Int64
	for b.Loop() {
		Parallel(2, func(lo, hi int) { sink.Add(int64(hi - lo)) })
	}
}

// TestSetSpinWait checks that SetSpinWait returns the previous setting and
// that Parallel covers every index whether workers poll or block at once.
func TestSetSpinWait(t *testing.T) { forEachISA(t, testSetSpinWait) }

func testSetSpinWait(t *testing.T) {
	saved := Workers()
	defer SetWorkers(saved)
	SetWorkers(2)
	prev := SetSpinWait(0)
	defer SetSpinWait(prev)
	if got := SetSpinWait(time.Millisecond); got != 0 {
		t.Errorf("SetSpinWait returned %v, want the 0 set before", got)
	}
	for _, d := range []time.Duration{0, time.Millisecond, -time.Second} {
		SetSpinWait(d)
		for range 50 {
			var hits [100]atomic.Int32
			Parallel(len(hits), func(lo, hi int) {
				for i := lo; i < hi; i++ {
					hits[i].Add(1)
				}
			})
			for i := range hits {
				if n := hits[i].Load(); n != 1 {
					t.Fatalf("spin %v: index %d covered %d times", d, i, n)
				}
			}
			time.Sleep(10 * time.Microsecond)
		}
	}
	if got := SetSpinWait(prev); got != 0 {
		t.Errorf("a negative spin wait was stored as %v, want 0", got)
	}
}

// splitSmallWork makes the convolutions and elementwise programs of the
// test split over the workers however little work they hold, so that
// tests of small cases exercise the parallel paths, and restores the
// thresholds when the test ends.
func splitSmallWork(t *testing.T) {
	conv, elem := convParallelFlops, elementwiseParallelMin
	convParallelFlops, elementwiseParallelMin = 0, 0
	t.Cleanup(func() { convParallelFlops, elementwiseParallelMin = conv, elem })
}
