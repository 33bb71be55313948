// Package bad holds models that misbehave in every way fxgen must survive:
// each line a test expects in a message is marked with a "want:" comment.
package bad

import (
	"log"
	"os"
	"runtime/debug"
	"sync"
	"time"

	"github.com/fxgen/fxgen/tensor"
)

// Good traces fine.
type Good struct{}

// NewGood returns a Good.
func NewGood() *Good { return &Good{} }

// Forward returns relu(x).
func (m *Good) Forward(x *tensor.Tensor) *tensor.Tensor { return x.Relu() }

// CtorPanic panics while it is built.
type CtorPanic struct{ Good }

// NewCtorPanic panics.
func NewCtorPanic() *CtorPanic {
	panic("ctor boom") // want: ctor panic
}

// ForwardPanic panics while it is traced.
type ForwardPanic struct{}

// NewForwardPanic returns a ForwardPanic.
func NewForwardPanic() *ForwardPanic { return &ForwardPanic{} }

// Forward panics.
func (m *ForwardPanic) Forward(x *tensor.Tensor) *tensor.Tensor {
	panic("forward boom") // want: forward panic
}

// GoPanic panics in a goroutine it starts.
type GoPanic struct{}

// NewGoPanic returns a GoPanic.
func NewGoPanic() *GoPanic { return &GoPanic{} }

// Forward panics in another goroutine.
func (m *GoPanic) Forward(x *tensor.Tensor) *tensor.Tensor {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		panic("goroutine boom") // want: goroutine panic
	}()
	wg.Wait()
	return x
}

// GoTrace reads a traced value in a goroutine it starts.
type GoTrace struct{}

// NewGoTrace returns a GoTrace.
func NewGoTrace() *GoTrace { return &GoTrace{} }

// Forward calls Item on the traced input in another goroutine.
func (m *GoTrace) Forward(x *tensor.Tensor) *tensor.Tensor {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		_ = x.Sum().Item() // want: goroutine trace error
	}()
	wg.Wait()
	return x
}

// Recurse never stops calling itself.
type Recurse struct{}

// NewRecurse returns a Recurse, with a small stack limit so that the
// overflow comes quickly.
func NewRecurse() *Recurse {
	debug.SetMaxStack(8 << 20)
	return &Recurse{}
}

// Forward recurses for ever.
func (m *Recurse) Forward(x *tensor.Tensor) *tensor.Tensor { return m.deep(x, 0) }

func (m *Recurse) deep(x *tensor.Tensor, n int) *tensor.Tensor {
	return m.deep(x, n+1) // want: recursion
}

// ExitCtor exits the process while it is built.
type ExitCtor struct{ Good }

// NewExitCtor exits with status 3.
func NewExitCtor() *ExitCtor {
	os.Exit(3)
	return nil
}

// ExitZero exits the process with status 0 while it is traced.
type ExitZero struct{}

// NewExitZero returns an ExitZero.
func NewExitZero() *ExitZero { return &ExitZero{} }

// Forward exits.
func (m *ExitZero) Forward(x *tensor.Tensor) *tensor.Tensor {
	os.Exit(0)
	return x
}

// Fatal calls log.Fatal while it is traced.
type Fatal struct{}

// NewFatal returns a Fatal.
func NewFatal() *Fatal { return &Fatal{} }

// Forward logs and exits.
func (m *Fatal) Forward(x *tensor.Tensor) *tensor.Tensor {
	log.Fatal("cannot go on")
	return x
}

//go:generate $FXGEN -type HangCtor -input "x=f32[N,4]" -timeout 10m

// HangCtor is never built.
type HangCtor struct{ Good }

// NewHangCtor sleeps for an hour.
func NewHangCtor() *HangCtor {
	time.Sleep(time.Hour) // want: hang ctor
	return nil
}

// Spin never returns from Forward.
type Spin struct{}

// NewSpin returns a Spin.
func NewSpin() *Spin { return &Spin{} }

// Forward loops for ever.
func (m *Spin) Forward(x *tensor.Tensor) *tensor.Tensor {
	for i := 0; ; i++ { // want: spin
		if i < 0 {
			return x
		}
	}
}

// flips counts traces of Flip: package-level state.
var flips int

// Flip traces differently every other time.
type Flip struct{}

// NewFlip returns a Flip.
func NewFlip() *Flip { return &Flip{} }

// Forward adds a ReLU on every other call.
func (m *Flip) Forward(x *tensor.Tensor) *tensor.Tensor {
	flips++
	y := x.MulScalar(2)
	if flips%2 == 0 {
		y = y.Relu()
	}
	return y.Neg() // want: flip
}

// Dynamic branches on a traced value.
type Dynamic struct{}

// NewDynamic returns a Dynamic.
func NewDynamic() *Dynamic { return &Dynamic{} }

// Forward reads the sum of x.
func (m *Dynamic) Forward(x *tensor.Tensor) *tensor.Tensor {
	if x.Sum().Item() > 0 { // want: dynamic
		return x.Relu()
	}
	return x
}

// ReadsCaptured reads the value of a tensor its closure holds: the compiled
// model would keep today's value.
type ReadsCaptured struct {
	Scale func(*tensor.Tensor) *tensor.Tensor
}

// NewReadsCaptured returns a ReadsCaptured.
func NewReadsCaptured() *ReadsCaptured {
	gain := tensor.FromFloat32([]float32{2}, 1)
	return &ReadsCaptured{Scale: func(x *tensor.Tensor) *tensor.Tensor {
		return x.MulScalar(float64(gain.Item())) // want: reads captured
	}}
}

// Forward scales x.
func (m *ReadsCaptured) Forward(x *tensor.Tensor) *tensor.Tensor { return m.Scale(x) }

// Clash is a model whose compiled type name is taken.
type Clash struct{ Good }

// NewClash returns a Clash.
func NewClash() *Clash { return &Clash{} }

// ClashCompiled is the user's own type with the generated type's name.
type ClashCompiled struct{} // want: clash type

// ClashFn is a model whose compiled constructor's name is taken.
type ClashFn struct{ Good }

// NewClashFn returns a ClashFn.
func NewClashFn() *ClashFn { return &ClashFn{} }

// NewClashFnCompiled is the user's own function with the generated
// constructor's name.
func NewClashFnCompiled() {} // want: clash func

// HugeShape reshapes x to a shape whose size wraps around to x's: the
// traced type would describe no tensor.
type HugeShape struct{}

// NewHugeShape returns a HugeShape.
func NewHugeShape() *HugeShape { return &HugeShape{} }

// Forward reshapes x f32[N,4] to [2^62+1, 4] and back.
func (m *HugeShape) Forward(x *tensor.Tensor) *tensor.Tensor {
	return x.Reshape(1<<62+1, 4).Relu() // want: huge shape
}
