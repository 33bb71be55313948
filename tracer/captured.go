// This file holds Captured, with which a compiled model finds the
// parameters its model holds where Go code cannot name them.

package tracer

import (
	"fmt"

	"github.com/fxgen/fxgen/tensor"
)

// Captured traces root.Forward as Trace does and returns the tensors the
// model holds where Go code cannot name them, in the order the trace met
// them: those of modules and tensors that closures (or user modules held
// only as method values) capture. A compiled model whose graph has such
// parameters calls it in its constructor, so that it reads them in place,
// after weights were loaded, as it does the parameters it can name; ctor
// names that constructor in messages and want is how many tensors the
// generated code expects. The inputs are specs as ParseInput takes them.
//
// Captured panics when the trace fails or meets another number of such
// tensors than want: Forward then changed since the code was generated.
func Captured(root any, ctor string, inputs []string, want int, opts ...Option) []*tensor.Tensor {
	ins := make([]Input, len(inputs))
	for i, spec := range inputs {
		in, err := ParseInput(spec)
		if err != nil {
			panic(fmt.Sprintf("%s: %v", ctor, err))
		}
		ins[i] = in
	}
	t, err := trace(root, ins, opts)
	if err != nil {
		panic(fmt.Sprintf("%s: tracing %T.Forward again, to find the parameters it holds in closures, failed: %v; "+
			"run go generate if Forward changed", ctor, root, err))
	}
	if len(t.captured) != want {
		panic(fmt.Sprintf("%s: tracing %T.Forward again found %d parameters it holds in closures, the generated code expects %d: "+
			"Forward changed since go generate; run it again", ctor, root, len(t.captured), want))
	}
	return t.captured
}
