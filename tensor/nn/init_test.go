// This file tests parameter initialisation from many goroutines.

package nn

import (
	"fmt"
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

// tensorsOf returns the data of each parameter of m, one string each.
func tensorsOf(m any) []string {
	var out []string
	for _, p := range NamedParameters(m) {
		out = append(out, fmt.Sprint(p.Tensor.Float32s()))
	}
	return out
}

type twoLayers struct {
	A   *Linear
	B   *Conv2d
	Emb *Embedding
}

func newTwoLayers() *twoLayers {
	return &twoLayers{A: NewLinear(64, 64), B: NewConv2d(8, 8, 3, 1, 1, true), Emb: NewEmbedding(32, 16)}
}

// TestConcurrentConstruction: models built on many goroutines at once do
// not race (run with -race), and every tensor is one whole run of the
// seeded sequence, the same runs a one-goroutine build draws.
func TestConcurrentConstruction(t *testing.T) {
	const n = 8
	Seed(11)
	var want []string
	for range n {
		want = append(want, tensorsOf(newTwoLayers())...)
	}
	Seed(11)
	models := make([]*twoLayers, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() { defer wg.Done(); models[i] = newTwoLayers() }()
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
