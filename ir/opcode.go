// This file defines the six opcodes of a graph node.

package ir

// Opcode says what kind of operation a node performs; the six are those of
// torch.fx.
type Opcode uint8

// The opcodes, in the order every switch over them follows.
const (
	// Placeholder is a graph input; Target is its name.
	Placeholder Opcode = iota
	// GetAttr reads a parameter or buffer; Target is its qualified name.
	GetAttr
	// CallFunction applies an op of the vocabulary written as a package
	// function (tensor.Relu(x)); Target is the op name.
	CallFunction
	// CallMethod applies an op written as a method (x.Relu()); Target is the
	// op name.
	CallMethod
	// CallModule calls a leaf module's Forward; Target is its qualified name.
	CallModule
	// Output returns the graph's results; its one arg is a node or a list.
	Output
)

var opcodeNames = [...]string{"placeholder", "get_attr", "call_function", "call_method", "call_module", "output"}

// String returns the torch.fx spelling: placeholder, get_attr, call_function,
// call_method, call_module, output.
func (o Opcode) String() string {
	if int(o) < len(opcodeNames) {
		return opcodeNames[o]
	}
	return "invalid"
}

// ParseOpcode parses the torch.fx spelling of an opcode.
func ParseOpcode(s string) (Opcode, bool) {
	for i, n := range opcodeNames {
		if n == s {
			return Opcode(i), true
		}
	}
	return 0, false
}
