// Package runtime holds the numeric kernels that eager tensors, the graph
// interpreter and fxgen's generated code all call: GEMM, elementwise ops,
// reductions and index ops over flat slices plus shapes.
//
// The package knows nothing of graphs or tracing. Exported kernels check the
// lengths and shapes of what they are given and panic with a message naming
// the kernel; inner loops do not check.
package runtime
