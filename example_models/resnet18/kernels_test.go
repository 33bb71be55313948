//go:build !noasm

package resnet18

// testBatches are the batch sizes TestCompiledMatchesEager runs: the
// assembly kernels are fast enough for a second, larger batch.
var testBatches = []int{1, 3}
