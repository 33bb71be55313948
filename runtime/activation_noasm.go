// Portable build: the activation kernels have no vector path.

//go:build !amd64 || noasm

package runtime

// activationVec reports false: the portable loops of activation.go do the
// work.
func activationVec(kind int, out, x []float32) bool { return false }

// expShiftVec reports false: softmax uses its portable loop.
func expShiftVec(out, x []float32, shift float64, below bool) (sum float64, ok bool) {
	return 0, false
}

// softmaxKeptVec does no row: softmaxKeptRows takes them one by one.
func softmaxKeptVec(out, x []float32, size, rows int, kept []int) (done int) { return 0 }

// maxVec reports false: softmax uses its portable loop.
func maxVec(x []float32) (m float32, nan, ok bool) { return 0, false, false }

// reluVec reports false: the portable ReLU loop does the work.
func reluVec(out, x []float32) bool { return false }

// vectorKernels reports that this build has the assembly vector kernels.
const vectorKernels = false

// clampVec reports false: the portable clamp loop does the work.
func clampVec(out, x []float32, lo, hi float32) bool { return false }

// unaryVec reports false: the portable maps do the work.
func unaryVec(m unaryMap, out, x []float32) bool { return false }
