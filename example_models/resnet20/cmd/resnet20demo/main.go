// Command resnet20demo runs the compiled CIFAR ResNet-20 of the model zoo
// on a random batch of 32×32 images and prints the predicted classes and the
// time per batch, eager and compiled. With -weights it first loads a
// PyTorch state dict saved as safetensors (names as in the PyTorch model).
//
//	go run ./example_models/resnet20/cmd/resnet20demo -n 64
//	go run ./example_models/resnet20/cmd/resnet20demo -weights example_models/resnet20/testdata/torch_weights.safetensors
package main

import (
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"sort"
	"time"

	"github.com/fxgen/fxgen/example_models/resnet20"
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
)

var (
	batch   = flag.Int("n", 64, "batch size N")
	weights = flag.String("weights", "", "safetensors file with a PyTorch ResNet-20 state dict")
)

// classes are CIFAR-10's labels.
var classes = [10]string{"airplane", "automobile", "bird", "cat", "deer", "dog", "frog", "horse", "ship", "truck"}

func main() {
	log.SetFlags(0)
	log.SetPrefix("resnet20demo: ")
	flag.Parse()
	m := resnet20.NewResNet20()
	if *weights != "" {
		f, err := os.Open(*weights)
		if err != nil {
			log.Fatal(err)
		}
		err = nn.LoadSafetensors(f, m)
		f.Close()
		if err != nil {
			log.Fatal(err)
		}
	}
	c := resnet20.NewResNet20Compiled(m)
	data := make([]float32, *batch*3*32*32)
	for i := range data {
		data[i] = rand.Float32()*2 - 1
	}
	x := tensor.FromFloat32(data, *batch, 3, 32, 32)
	y := c.Forward(x)
	fmt.Printf("input %v\noutput %v\n", x, y)
	logits := y.Float32s()
	for i := 0; i < min(*batch, 4); i++ {
		row := logits[i*10 : (i+1)*10]
		best := 0
		for j := range row {
			if row[j] > row[best] {
				best = j
			}
		}
		fmt.Printf("image %d: %s (logit %.4f)\n", i, classes[best], row[best])
	}
	flops := 2 * 40813184 * float64(*batch) // multiply-adds of the convolutions and fc, ×2
	for _, r := range []struct {
		name string
		fn   func()
	}{{"eager", func() { m.Forward(x) }}, {"compiled", func() { c.Forward(x) }}} {
		d := timePerCall(r.fn)
		fmt.Printf("%-9s %v per batch of %d (%.1f GFLOP/s)\n", r.name+":", d, *batch, flops/d.Seconds()/1e9)
	}
}

// timePerCall returns the median time of fn over 11 runs after a warm-up.
func timePerCall(fn func()) time.Duration {
	fn()
	ts := make([]time.Duration, 11)
	for i := range ts {
		start := time.Now()
		fn()
		ts[i] = time.Since(start)
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i] < ts[j] })
	return ts[len(ts)/2]
}
