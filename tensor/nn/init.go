// This file holds parameter initialisation and its seeded generator.

package nn

import (
	"math"
	"math/rand/v2"
	"sync"

	"github.com/fxgen/fxgen/tensor"
)

// initRNG is the generator that initialises parameters. Each tensor takes
// its values as one run of the sequence under mu, so models may be built
// from many goroutines at once, and a build on one goroutine draws exactly
// the values it would draw alone.
var initRNG = struct {
	mu  sync.Mutex
	rng *rand.Rand
}{rng: rand.New(rand.NewPCG(0, 0))}

// Seed resets the generator that initialises parameters, so that models
// built after it get the same weights every run. Models built at the same
// time on several goroutines each take whole tensors from the one
// sequence, in the order the goroutines ask; to give each its own values,
// build them one after another.
func Seed(seed uint64) {
	initRNG.mu.Lock()
	defer initRNG.mu.Unlock()
	initRNG.rng = rand.New(rand.NewPCG(seed, 0))
}

// fill returns a float32 tensor of the shape whose values are f of the
// generator, drawn in order while no other tensor draws.
func fill(f func(r *rand.Rand) float32, shape ...int) *tensor.Tensor {
	n := 1
	for _, d := range shape {
		n *= d
	}
	data := make([]float32, n)
	initRNG.mu.Lock()
	for i := range data {
		data[i] = f(initRNG.rng)
	}
	initRNG.mu.Unlock()
	return tensor.FromFloat32(data, shape...)
}

// uniform returns a float32 tensor of the shape with values uniform in
// [-bound, bound).
func uniform(bound float64, shape ...int) *tensor.Tensor {
	return fill(func(r *rand.Rand) float32 { return float32((r.Float64()*2 - 1) * bound) }, shape...)
}

// randNormal returns a float32 tensor of the shape with values from
// N(0, std²).
func randNormal(std float64, shape ...int) *tensor.Tensor {
	return fill(func(r *rand.Rand) float32 { return float32(r.NormFloat64() * std) }, shape...)
}

// fanInBound is PyTorch's default bound for Linear and Conv parameters,
// 1/√fanIn (kaiming_uniform with a = √5).
func fanInBound(fanIn int) float64 {
	if fanIn == 0 {
		return 0
	}
	return 1 / math.Sqrt(float64(fanIn))
}
