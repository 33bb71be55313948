// This file holds osYield where the runtime has no way to yield the
// thread.

//go:build !linux

package runtime

// osYield does nothing here (see yield_linux.go).
func osYield() {}
