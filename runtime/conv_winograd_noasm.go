// Portable build: the Winograd transforms are plain Go.

//go:build !amd64 || noasm

package runtime

// winoKernelsFor returns the portable Winograd transforms.
func winoKernelsFor() *winoKernels { return winoGo }
