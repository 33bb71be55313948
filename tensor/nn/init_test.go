// This file tests parameter initialisation from many goroutines.

package nn

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

// TestInitSequence: after Seed, a Linear's weight and bias are the next
// values of the PCG stream, as they were when the generator was a plain
// package variable (the values the fixtures and parity tests were made
// with).
func TestInitSequence(t *testing.T) {
	Seed(3)
	l := NewLinear(4, 2)
	r := rand.New(rand.NewPCG(3, 0))
	b := fanInBound(4)
	want := make([]float32, 10)
	for i := range want {
		want[i] = float32((r.Float64()*2 - 1) * b)
	}
	got := append(append([]float32{}, l.Weight.Float32s()...), l.Bias.Float32s()...)
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// tensorsOf returns a digest of the data of each parameter of m, in
// order.
func tensorsOf(m any) []string {
	var out []string
	for _, p := range NamedParameters(m) {
		h := fnv.New64a()
		for _, v := range p.Tensor.Float32s() {
			b := math.Float32bits(v)
			h.Write([]byte{byte(b), byte(b >> 8), byte(b >> 16), byte(b >> 24)})
		}
		out = append(out, fmt.Sprintf("%d:%x", len(p.Tensor.Float32s()), h.Sum64()))
	}
	return out
}

type twoLayers struct {
	A   *Linear
	B   *Conv2d
	Emb *Embedding
}

func newTwoLayers() *twoLayers {
	return &twoLayers{A: NewLinear(64, 64), B: NewConv2d(8, 8, 3, Padding(1)), Emb: NewEmbedding(32, 16)}
}

type sameLayers struct{ A, B, C, D *Linear }

func newSameLayers() *sameLayers {
	return &sameLayers{A: NewLinear(128, 128, Bias(false)), B: NewLinear(128, 128, Bias(false)), C: NewLinear(128, 128, Bias(false)), D: NewLinear(128, 128, Bias(false))}
}

// TestConcurrentConstruction: models built on many goroutines at once do
// not race (run with -race), and every tensor is one whole run of the
// seeded sequence: with tensors all of one size and distribution, the
// runs are those a one-goroutine build draws, in some order.
func TestConcurrentConstruction(t *testing.T) {
	const n = 16
	Seed(11)
	var want []string
	for range n {
		want = append(want, tensorsOf(newSameLayers())...)
	}
	Seed(11)
	models := make([]*sameLayers, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() { defer wg.Done(); models[i] = newSameLayers() }()
	}
	wg.Wait()
	var got []string
	for _, m := range models {
		got = append(got, tensorsOf(m)...)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Error("tensors built concurrently are not the runs of the seeded sequence a one-goroutine build draws")
	}
	Seed(0)
}

// TestWithSeedConcurrent: models built at once on many goroutines, each
// under WithSeed, get exactly the values a one-goroutine build after Seed
// gives them, and the shared sequence is left alone.
func TestWithSeedConcurrent(t *testing.T) {
	const n = 8
	want := make([][]string, n)
	for i := range n {
		Seed(uint64(100 + i))
		want[i] = tensorsOf(newTwoLayers())
	}
	Seed(7)
	next := tensorsOf(NewLinear(3, 3))
	Seed(7)
	got := make([][]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			WithSeed(uint64(100+i), func() { got[i] = tensorsOf(newTwoLayers()) })
		}()
	}
	wg.Wait()
	for i := range n {
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("model %d built under WithSeed differs from the one built after Seed", i)
		}
	}
	if !slices.Equal(tensorsOf(NewLinear(3, 3)), next) {
		t.Error("WithSeed moved the shared sequence")
	}
	Seed(0)
}
