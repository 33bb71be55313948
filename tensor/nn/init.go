// This file holds parameter initialisation and its seeded generator.

package nn

import (
	"math"
	"math/rand/v2"

	"github.com/fxgen/fxgen/tensor"
)

var rng = rand.New(rand.NewPCG(0, 0))

// Seed resets the generator that initialises parameters, so that models
// built after it get the same weights every run.
func Seed(seed uint64) { rng = rand.New(rand.NewPCG(seed, 0)) }

// uniform returns a float32 tensor of the shape with values uniform in
// [-bound, bound).
func uniform(bound float64, shape ...int) *tensor.Tensor {
	n := 1
	for _, d := range shape {
		n *= d
	}
	data := make([]float32, n)
	for i := range data {
		data[i] = float32((rng.Float64()*2 - 1) * bound)
	}
	return tensor.FromFloat32(data, shape...)
}

// fanInBound is PyTorch's default bound for Linear and Conv parameters,
// 1/√fanIn (kaiming_uniform with a = √5).
func fanInBound(fanIn int) float64 {
	if fanIn == 0 {
		return 0
	}
	return 1 / math.Sqrt(float64(fanIn))
}
