// This file holds parameter initialisation and its seeded generator.

package nn

import (
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"

	"github.com/fxgen/fxgen/internal/goid"
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

// seeded holds the generators of the goroutines inside WithSeed.
var seeded struct {
	mu   sync.Mutex
	n    atomic.Int32 // len(byID), read without mu
	byID map[uint64]*rand.Rand
}

// WithSeed calls build on the calling goroutine with a parameter generator
// of its own, seeded with seed: what build constructs there is initialised
// from that generator alone, exactly as after Seed(seed) on one goroutine,
// whatever other goroutines build meanwhile. Goroutines that build starts
// use the shared generator.
func WithSeed(seed uint64, build func()) {
	id := goid.Current()
	r := rand.New(rand.NewPCG(seed, 0))
	seeded.mu.Lock()
	if seeded.byID == nil {
		seeded.byID = map[uint64]*rand.Rand{}
	}
	old, had := seeded.byID[id]
	seeded.byID[id] = r
	seeded.n.Store(int32(len(seeded.byID)))
	seeded.mu.Unlock()
	defer func() {
		seeded.mu.Lock()
		if had {
			seeded.byID[id] = old
		} else {
			delete(seeded.byID, id)
		}
		seeded.n.Store(int32(len(seeded.byID)))
		seeded.mu.Unlock()
	}()
	build()
}

// localRNG returns the generator of the calling goroutine's WithSeed, or
// nil; it reads the goroutine id only while some WithSeed runs.
func localRNG() *rand.Rand {
	if seeded.n.Load() == 0 {
		return nil
	}
	id := goid.Current()
	seeded.mu.Lock()
	defer seeded.mu.Unlock()
	return seeded.byID[id]
}

// fill returns a float32 tensor of the shape whose values are f of the
// generator (the goroutine's own under WithSeed), drawn in order while no
// other tensor draws from it.
func fill(f func(r *rand.Rand) float32, shape ...int) *tensor.Tensor {
	n := 1
	for _, d := range shape {
		n *= d
	}
	data := make([]float32, n)
	if r := localRNG(); r != nil {
		for i := range data {
			data[i] = f(r)
		}
		return tensor.FromFloat32(data, shape...)
	}
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
