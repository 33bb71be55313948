// Package tensor is fxgen's user-facing tensor: one *Tensor type for eager
// values and for the symbolic values of a trace.
//
// Ops are methods (x.Relu(), recorded as call_method) and package functions
// (tensor.Relu(x), recorded as call_function), each a thin layer over one
// entry of the op vocabulary in package ir. On eager tensors they run the
// vocabulary's runtime kernel; on a symbolic tensor the tracer records a
// typed node instead, so a model's Forward is traced by running it.
//
//	x := tensor.FromFloat32([]float32{1, -2, 3, -4}, 2, 2)
//	y := x.Relu().Sum(-1) // [1 3]
//
// Turning a symbolic tensor into a Go value (Item, Float32s, Dim of a
// symbolic size) fails the trace with a tracer.TraceError that names the
// model's line.
//
// Sizes are read with x.Size(i), a Size: a plain int eagerly, a recorded
// size value while tracing. Shape arguments (View, Reshape, Expand, Zeros,
// Ones, Full) are Dims, each an int or a Size, so a batch size that is
// symbolic while tracing is used the PyTorch way:
//
//	y := x.View(x.Size(0), -1)
//	cls := m.Cls.Expand(x.Size(0), -1, -1)
//
// A trace belongs to the goroutine that runs the model's Forward. There,
// the model's parameters and buffers are graph values: an op on one is
// recorded (get_attr and the op), not run, and reading one's values is a
// trace error; constructors (Zeros, Arange, Rand, ...) are recorded too.
// On every other goroutine all of this is plain eager work, even on the
// model being traced, and several traces may run at once. Tensors made
// inside Forward from Go values (FromFloat32, ...), and integer and
// boolean tensors made before it (index tables, masks), are constants of
// the graph, as in torch.fx. A floating-point tensor made before the trace
// that the model holds where Go code cannot name it (in a closure, or a
// package-level variable) is a graph value too, which the compiled model
// finds by tracing again (tracer.Captured); one in an unexported field is
// a trace error.
package tensor
