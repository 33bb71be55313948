//go:build noasm

package main

// The catalogue tests the command, not the kernels: CI's pure-Go pass
// need not run it again.
func init() { kernelVariantRun = true }
