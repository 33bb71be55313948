//go:build noasm

package resnet18

// testBatches are the batch sizes TestCompiledMatchesEager runs: with the
// pure-Go kernels one image already takes seconds, so N=3 is left to the
// default build.
var testBatches = []int{1}
