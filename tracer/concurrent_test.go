// This file tests that a trace touches nothing outside its own goroutine:
// eager work elsewhere stays eager, and traces run side by side.

package tracer_test

import (
	"sync"
	"testing"
	"time"

	"github.com/fxgen/fxgen/internal/testutil"
	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
	"github.com/fxgen/fxgen/tracer"
)

// gated is a model whose Forward can be held at its start (by gate, an
// unexported field the walk skips) while another goroutine works.
type gated struct {
	FC   *nn.Linear
	Gain *tensor.Tensor
	gate func()
}

func (m *gated) Forward(x *tensor.Tensor) *tensor.Tensor {
	if m.gate != nil {
		m.gate()
	}
	bias := tensor.Zeros(3).Add(tensor.Ones(3))
	return m.FC.Forward(x).Mul(m.Gain.Sigmoid()).Add(bias)
}

// pause returns a gate that blocks the first Forward to pass it until the
// returned release is called, and a channel closed once it is blocked.
func pause() (gate func(), blocked <-chan struct{}, release func()) {
	b, r := make(chan struct{}), make(chan struct{})
	var once sync.Once
	gate = func() {
		first := false
		once.Do(func() { first = true })
		if first {
			close(b)
			<-r
		}
	}
	return gate, b, func() { close(r) }
}

// TestEagerElsewhereDuringTrace: while a trace is inside Forward, another
// goroutine's constructors, eager Forward of the same model and of another
// one, and reads of the model's parameters are plain eager work, and the
// trace records none of it.
func TestEagerElsewhereDuringTrace(t *testing.T) {
	newModel := func() *gated {
		return &gated{FC: nn.NewLinear(4, 3), Gain: testutil.RandFloat32(7, 3)}
	}
	m := newModel()
	pre := testutil.RandFloat32(9, 3) // made before the trace, as a tensor a closure holds would be
	alone, err := tracer.Trace(m, tracer.MustParseInputs("x=f32[N,4]"))
	if err != nil {
		t.Fatal(err)
	}
	gate, blocked, release := pause()
	m.gate = gate
	var g *ir.Graph
	done := make(chan error)
	go func() {
		var err error
		g, err = tracer.Trace(m, tracer.MustParseInputs("x=f32[N,4]"))
		done <- err
	}()
	<-blocked

	z := tensor.Zeros(2, 2)
	if z.Symbolic() != nil {
		t.Errorf("tensor.Zeros on another goroutine during a trace is %v, want an eager tensor", z)
	} else if z.Sum().Item() != 0 {
		t.Errorf("zeros sum to %v", z.Sum().Item())
	}
	if y := pre.MulScalar(2); y.Symbolic() != nil || y.FromParams() {
		t.Errorf("eager work on a tensor made before the trace is %v (from parameters: %v), want untouched eager work", y, y.FromParams())
	}
	x := testutil.RandFloat32(8, 5, 4)
	other := newModel()
	for name, mm := range map[string]*gated{"the traced model": m, "another model": other} {
		y := mm.Forward(x)
		if y.Symbolic() != nil {
			t.Errorf("eager Forward of %s during a trace returned %v", name, y)
			continue
		}
		if mm == other && y.FromParams() {
			t.Errorf("eager Forward of another model during a trace is marked as computed from the traced model's parameters")
		}
		want := mm.FC.Forward(x).Mul(mm.Gain.Sigmoid()).Add(tensor.Ones(3))
		if err := testutil.Close(y, want, 1e-6); err != nil {
			t.Errorf("eager Forward of %s: %v", name, err)
		}
		if v := mm.Gain.Float32s()[0]; v != mm.Gain.Array().F32[0] {
			t.Errorf("reading %s's parameter: %v", name, v)
		}
	}
	release()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got, want := g.Tabular(), alone.Tabular(); got != want {
		t.Errorf("the trace recorded work of another goroutine:\n%v\nwant\n%v", got, want)
	}
}

// TestTracesAtOnce: several traces run at the same time, of one model and
// of several, each recording exactly what a trace alone records.
func TestTracesAtOnce(t *testing.T) {
	shared := &gated{FC: nn.NewLinear(4, 3), Gain: testutil.RandFloat32(9, 3)}
	want, err := tracer.Trace(shared, tracer.MustParseInputs("x=f32[N,4]"))
	if err != nil {
		t.Fatal(err)
	}
	const n = 8
	graphs := make([]*ir.Graph, n)
	errs := make([]error, n)
	var start, wg sync.WaitGroup
	start.Add(1)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := shared
			if i%2 == 1 {
				m = &gated{FC: nn.NewLinear(4, 3), Gain: testutil.RandFloat32(uint64(i), 3)}
			}
			start.Wait()
			for range 20 {
				graphs[i], errs[i] = tracer.Trace(m, tracer.MustParseInputs("x=f32[N,4]"))
				if errs[i] != nil {
					return
				}
			}
		}()
	}
	start.Done()
	wg.Wait()
	for i, g := range graphs {
		if errs[i] != nil {
			t.Errorf("trace %d: %v", i, errs[i])
			continue
		}
		if g.Tabular() != want.Tabular() {
			t.Errorf("trace %d:\n%v\nwant\n%v", i, g.Tabular(), want.Tabular())
		}
		if err := g.Lint(); err != nil {
			t.Errorf("trace %d: %v", i, err)
		}
	}
}

// TestTraceWhileAnotherWaits: a trace held inside Forward does not hold up
// another trace, which finishes first with its own graph.
func TestTraceWhileAnotherWaits(t *testing.T) {
	a := &gated{FC: nn.NewLinear(4, 3), Gain: testutil.RandFloat32(1, 3)}
	b := &gated{FC: nn.NewLinear(4, 3), Gain: testutil.RandFloat32(2, 3)}
	want, err := tracer.Trace(b, tracer.MustParseInputs("x=f32[N,4]"))
	if err != nil {
		t.Fatal(err)
	}
	gate, blocked, release := pause()
	a.gate = gate
	doneA := make(chan error)
	go func() {
		_, err := tracer.Trace(a, tracer.MustParseInputs("x=f32[N,4]"))
		doneA <- err
	}()
	<-blocked
	doneB := make(chan *ir.Graph)
	go func() {
		g, err := tracer.Trace(b, tracer.MustParseInputs("x=f32[N,4]"))
		if err != nil {
			t.Error(err)
		}
		doneB <- g
	}()
	select {
	case g := <-doneB:
		if g != nil && g.Tabular() != want.Tabular() {
			t.Errorf("second trace:\n%v\nwant\n%v", g.Tabular(), want.Tabular())
		}
	case <-time.After(10 * time.Second):
		t.Error("a trace waited for another trace to finish")
	}
	release()
	if err := <-doneA; err != nil {
		t.Fatal(err)
	}
}

// spawning computes with its gain on a goroutine of its own.
type spawning struct {
	Gain *tensor.Tensor
}

func (m *spawning) Forward(x *tensor.Tensor) *tensor.Tensor {
	ch := make(chan *tensor.Tensor)
	go func() { ch <- m.Gain.Sigmoid() }()
	return x.Mul(<-ch) // spawned-use
}

// TestParamWorkOnAnotherGoroutine: work on a parameter that Forward hands
// to a goroutine of its own is not traced; its result entering the trace
// is an error, not a constant.
func TestParamWorkOnAnotherGoroutine(t *testing.T) {
	_, err := tracer.Trace(&spawning{Gain: testutil.RandFloat32(3, 3)}, tracer.MustParseInputs("x=f32[N,3]"))
	wantTraceErrorAt(t, err, "concurrent_test.go", lineIn(t, "concurrent_test.go", "// spawned-use"), "another goroutine")
}
