package runtime

import (
	"strings"
	"sync"
	"testing"
)

// TestFramesNeverShared checks that frames taken at once are distinct,
// that a returned frame is handed out again, and that many goroutines can
// take and return frames at once (run it under -race).
func TestFramesNeverShared(t *testing.T) {
	var p Frames[[4]int]
	a, b := p.Get(), p.Get()
	if a == b {
		t.Fatal("two frames taken at once are the same")
	}
	p.Put(a)
	if c := p.Get(); c != a {
		t.Errorf("Get after Put returned a new frame, want the returned one")
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				f := p.Get()
				f[0], f[1] = g, i
				if f[0] != g || f[1] != i {
					t.Errorf("frame written by another goroutine")
				}
				p.Put(f)
			}
		}()
	}
	wg.Wait()
	if n := len(p.free); n > 8 {
		t.Errorf("%d free frames after 8 goroutines, want at most 8", n)
	}
}

func TestFramesAllocateNothingWarm(t *testing.T) {
	var p Frames[[1024]float32]
	p.Put(p.Get())
	if got := testing.AllocsPerRun(10, func() { p.Put(p.Get()) }); got != 0 {
		t.Errorf("Get and Put of a warm free list: %v allocations, want 0", got)
	}
}

func TestSnapshotCheck(t *testing.T) {
	w, b := FromFloat32([]float32{1, 2}, 2), FromFloat32([]float32{3}, 1)
	var s Snapshot
	s.Record("fc.weight", w)
	s.Record("fc.bias", b)
	s.Check("M.Forward", "NewM") // unchanged: no panic
	b.MarkChanged()
	defer func() {
		msg, _ := recover().(string)
		for _, want := range []string{"M.Forward: parameter fc.bias changed after NewM computed from it", "build the compiled model again"} {
			if !strings.Contains(msg, want) {
				t.Errorf("panic %q lacks %q", msg, want)
			}
		}
	}()
	s.Check("M.Forward", "NewM")
	t.Error("Check did not panic after MarkChanged")
}
