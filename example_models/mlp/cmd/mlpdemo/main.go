// Command mlpdemo runs the compiled MLP of the model zoo on a random batch
// and prints the output and the time per batch, eager and compiled.
//
//	go run ./example_models/mlp/cmd/mlpdemo -n 256
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/fxgen/fxgen/example_models/mlp"
	"github.com/fxgen/fxgen/tensor"
)

var batch = flag.Int("n", 64, "batch size N")

func main() {
	flag.Parse()
	m := mlp.NewMLP()
	c := mlp.NewMLPCompiled(m)
	data := make([]float32, *batch*784)
	for i := range data {
		data[i] = rand.Float32()
	}
	x := tensor.FromFloat32(data, *batch, 784)
	y := c.Forward(x)
	fmt.Printf("input %v\noutput %v\n", x, y)
	fmt.Printf("row 0 logits: %v\n", y.Float32s()[:10])
	fmt.Printf("eager:    %v per batch of %d\n", timePerCall(func() { m.Forward(x) }), *batch)
	fmt.Printf("compiled: %v per batch of %d\n", timePerCall(func() { c.Forward(x) }), *batch)
}

// timePerCall returns the median time of fn over 21 runs after a warm-up.
func timePerCall(fn func()) time.Duration {
	fn()
	ts := make([]time.Duration, 21)
	for i := range ts {
		start := time.Now()
		fn()
		ts[i] = time.Since(start)
	}
	for i := range ts {
		for j := i + 1; j < len(ts); j++ {
			if ts[j] < ts[i] {
				ts[i], ts[j] = ts[j], ts[i]
			}
		}
	}
	return ts[len(ts)/2]
}
