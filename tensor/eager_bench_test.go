// This file benchmarks eager execution of one small op, the cost of the op
// vocabulary's dispatch.

package tensor

import "testing"

// BenchmarkEagerRelu4 is eager Relu on 4 elements: dispatch, type rule,
// result allocation and the kernel call.
func BenchmarkEagerRelu4(b *testing.B) {
	x := FromFloat32([]float32{-1, 2, -3, 4}, 4)
	b.ReportAllocs()
	for b.Loop() {
		x.Relu()
	}
}
