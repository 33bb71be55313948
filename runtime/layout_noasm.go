//go:build !amd64 || noasm

package runtime

// channelsLastAsm leaves every channel to channelsLast's loop.
func channelsLastAsm(dst, src []float32, c, hw int) int { return 0 }

// channelsFirstAsm leaves every channel to channelsFirst's loop.
func channelsFirstAsm(dst, src []float32, c, hw int) int { return 0 }
