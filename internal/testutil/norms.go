// This file randomises normalisation parameters for tests.

package testutil

import (
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/fxgen/fxgen/tensor"
)

// RandomizeNorms gives every float32 tensor of a state dict whose name
// ends in running_mean, running_var, or the weight or bias of a module
// named by isNorm, random values: weights and variances in [0.5, 1.5),
// biases and means in [-0.3, 0.3). A fresh BatchNorm's 1, 0, 0, 1 would
// hide a swapped operand.
func RandomizeNorms(sd map[string]*tensor.Tensor, seed uint64, isNorm func(module string) bool) {
	names := make([]string, 0, len(sd))
	for name := range sd {
		names = append(names, name)
	}
	sort.Strings(names)
	r := rand.New(rand.NewPCG(seed, seed))
	for _, name := range names {
		i := strings.LastIndexByte(name, '.')
		module, leaf := name[:max(i, 0)], name[i+1:]
		if leaf != "running_mean" && leaf != "running_var" && !((leaf == "weight" || leaf == "bias") && isNorm(module)) {
			continue
		}
		lo, hi := float32(-0.3), float32(0.3)
		if leaf == "weight" || leaf == "running_var" {
			lo, hi = 0.5, 1.5
		}
		data := sd[name].Float32s()
		for j := range data {
			data[j] = lo + (hi-lo)*r.Float32()
		}
	}
}
