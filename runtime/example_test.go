package runtime_test

import (
	"fmt"

	"github.com/fxgen/fxgen/runtime"
)

// C = A·B for a 2×3 A and a 3×2 B, row-major.
func ExampleSgemm() {
	a := []float32{
		1, 2, 3,
		4, 5, 6,
	}
	b := []float32{
		1, 0,
		0, 1,
		1, 1,
	}
	c := make([]float32, 2*2)
	runtime.Sgemm(false, false, 2, 2, 3, 1, a, 3, b, 2, 0, c, 2)
	fmt.Println(c)
	// Output: [4 5 10 11]
}

// A linear layer packs its weight W [out, in] once and then computes
// X·Wᵀ + bias with ReLU in one pass per call.
func ExampleSgemmPackedEpilogue() {
	w := []float32{ // 2 outputs, 3 inputs
		1, 1, 1,
		-1, 0, 0,
	}
	bias := []float32{0.5, 0}
	packed := runtime.PackB(true, 3, 2, w, 3) // Wᵀ, 3×2
	x := []float32{1, 2, 3}                   // one row
	y := make([]float32, 2)
	runtime.SgemmPackedEpilogue(1, 1, x, 3, packed, 0, y, 2, bias, runtime.ActReLU)
	fmt.Println(y)
	// Output: [6.5 0]
}

// SetWorkers bounds the goroutines a kernel call may use; results do not
// depend on it.
func ExampleSetWorkers() {
	prev := runtime.Workers()
	runtime.SetWorkers(1) // run every kernel on the calling goroutine
	defer runtime.SetWorkers(prev)
	fmt.Println(runtime.Workers())
	// Output: 1
}

// SetISA forces a lower kernel tier, here the portable Go kernels, as the
// environment variable FXGEN_ISA=generic does at start-up; results agree
// with every other tier's within rounding.
func ExampleSetISA() {
	prev, err := runtime.SetISA(runtime.ISAGeneric)
	if err != nil {
		panic(err)
	}
	defer runtime.SetISA(prev)
	c := make([]float32, 1)
	runtime.Sgemm(false, false, 1, 1, 2, 1, []float32{1, 2}, 2, []float32{3, 4}, 1, 0, c, 1)
	fmt.Println(runtime.CurrentISA(), c)
	// Output: generic [11]
}
