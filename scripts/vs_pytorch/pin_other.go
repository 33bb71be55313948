//go:build !linux

package main

// allowedCPUs returns nil: pinning is implemented for Linux only.
func allowedCPUs() []int { return nil }

// pinToCPU does nothing outside Linux.
func pinToCPU(cpu int) (unpin func(), err error) { return func() {}, nil }
