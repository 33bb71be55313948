// This file holds the deterministic weight fill that scripts/torch_reference.py
// computes too, so parity tests need no committed weights for big models.

package testutil

import (
	"fmt"
	"hash/fnv"
	"math"
	"strings"

	"github.com/fxgen/fxgen/runtime"
	"github.com/fxgen/fxgen/tensor"
)

// HashUniform returns the i-th value of the deterministic sequence named
// name, a multiple of 0.001 in [-1, 1]:
//
//	h := FNV-1a 32-bit hash of name
//	v := (i*2654435761 + h) mod 2001    (exact integer arithmetic)
//	u := float64(v - 1000) / 1000
//
// scripts/torch_reference.py computes the same sequence (hash_uniform).
// i must be below 2³² so that the product fits in a uint64.
func HashUniform(name string, i int) float64 {
	return hashUniform(fnv32a(name), i)
}

func fnv32a(name string) uint64 {
	h := fnv.New32a()
	h.Write([]byte(name))
	return uint64(h.Sum32())
}

func hashUniform(h uint64, i int) float64 {
	v := (uint64(i)*2654435761 + h) % 2001
	return float64(int64(v)-1000) / 1000
}

// FillValue returns element i of the deterministic fill of a float32
// tensor named name with the given shape, computed in float64 and then
// rounded to float32, by these rules (u = HashUniform(name, i)):
//
//	rank ≥ 2 (weights, embeddings):           u / √(numel/shape[0])
//	rank ≤ 1, name ends in running_var:        1 + 0.5·u   (positive)
//	rank ≤ 1, name ends in weight (norms):     1 + 0.1·u
//	rank ≤ 1, otherwise (biases, means):       0.1·u
//
// so that activations stay of order one through deep models.
func FillValue(name string, shape []int, i int) float32 {
	return fillValue(fnv32a(name), name, shape, i)
}

func fillValue(h uint64, name string, shape []int, i int) float32 {
	u := hashUniform(h, i)
	switch {
	case len(shape) >= 2:
		fanIn := runtime.NumElements(shape) / shape[0]
		return float32(u / math.Sqrt(float64(fanIn)))
	case strings.HasSuffix(name, "running_var"):
		return float32(1 + float64(0.5*u))
	case name == "weight" || strings.HasSuffix(name, ".weight"):
		return float32(1 + float64(0.1*u))
	}
	return float32(0.1 * u)
}

// FillStateDict overwrites, in place, every tensor of a state dict (as
// nn.StateDict returns it) with the deterministic fill: float32 tensors by
// FillValue, int64 tensors (num_batches_tracked) with 0, bool tensors with
// false.
func FillStateDict(sd map[string]*tensor.Tensor) {
	for name, t := range sd {
		a := t.Array()
		switch a.DType {
		case runtime.Float32:
			h := fnv32a(name)
			for i := range a.F32 {
				a.F32[i] = fillValue(h, name, a.Shape, i)
			}
		case runtime.Int64:
			clear(a.I64)
		case runtime.Bool:
			clear(a.B)
		default:
			panic(fmt.Sprintf("testutil: FillStateDict: %s has dtype %v", name, a.DType))
		}
	}
}

// HashInput returns a float32 tensor of the shape whose element i is
// HashUniform(name, i): a deterministic input that Python computes too.
func HashInput(name string, shape ...int) *tensor.Tensor {
	h := fnv32a(name)
	data := make([]float32, runtime.NumElements(shape))
	for i := range data {
		data[i] = float32(hashUniform(h, i))
	}
	return tensor.FromFloat32(data, shape...)
}
