// This file holds the seed cases of the torch.fx documentation and the
// tracer's recipes (Concrete, Wrap, Leaf, LeafRule, sizes) as runnable
// examples.

package tracer_test

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
	"github.com/fxgen/fxgen/tracer"
)

// targets lists the opcode and target of each node between the
// placeholders and the output.
func targets(g *ir.Graph) string {
	var out []string
	for _, n := range g.Nodes() {
		if n.Op != ir.Placeholder && n.Op != ir.Output {
			out = append(out, n.Op.String()+" "+n.Target)
		}
	}
	return strings.Join(out, ", ")
}

type activation struct {
	DoActivation bool `fx:"-"`
	Linear       *nn.Linear
}

func (m *activation) Forward(x *tensor.Tensor) *tensor.Tensor {
	x = m.Linear.Forward(x)
	if m.DoActivation { // a Go value: the branch just runs
		x = x.Relu()
	}
	return x
}

// Static control flow runs while tracing: each setting of a Go field
// gives its own graph.
func Example_staticControlFlow() {
	for _, act := range []bool{false, true} {
		g, _ := tracer.Trace(&activation{DoActivation: act, Linear: nn.NewLinear(512, 512)}, tracer.MustParseInputs("x=f32[N,512]"))
		fmt.Printf("DoActivation=%v: %s\n", act, targets(g))
	}
	// Output:
	// DoActivation=false: call_module linear
	// DoActivation=true: call_module linear, call_method relu
}

type signBranch struct{}

func (signBranch) Forward(x *tensor.Tensor) *tensor.Tensor {
	if x.Sum().Item() > 0 { // a tensor value: only known when the model runs
		return x.Relu()
	}
	return x.Neg()
}

// Dynamic control flow is a TraceError at the model's line that says what
// to do instead.
func Example_dynamicControlFlow() {
	_, err := tracer.Trace(signBranch{}, tracer.MustParseInputs("x=f32[N,4]"))
	var te *tracer.TraceError
	if errors.As(err, &te) {
		fmt.Println(filepath.Base(te.File), strings.Contains(te.Msg, "control flow"), strings.Contains(te.Msg, "tracer.Leaf"))
	}
	// Output:
	// example_seeds_test.go true true
}

type flagged struct{}

func (flagged) Forward(x *tensor.Tensor, flag bool) *tensor.Tensor {
	if flag {
		return x.Relu()
	}
	return x.Neg()
}

// A non-tensor argument of Forward is bound with Concrete; unbound, the
// trace says how to bind it.
func ExampleConcrete() {
	_, err := tracer.Trace(flagged{}, tracer.MustParseInputs("x=f32[N,4]"))
	fmt.Println(err)
	g, _ := tracer.Trace(flagged{}, tracer.MustParseInputs("x=f32[N,4]"), tracer.Concrete("flag", false))
	fmt.Println(targets(g))
	// Output:
	// tracer: Forward parameter 1 (bool) is not a tensor, so it needs a concrete value: bind it with tracer.Concrete (fxgen -concrete name=value)
	// call_method neg
}

// invSqrtLenOf reads a size that is symbolic while tracing, so it is
// wrapped: the trace records one call_function node and the compiled model
// calls it.
func invSqrtLenOf(args ...*tensor.Tensor) *tensor.Tensor {
	return tensor.Scalar(float32(1 / math.Sqrt(float64(args[0].Dim(0)))))
}

var exInvSqrtLen = tracer.Wrap("example_inv_sqrt_len", invSqrtLenOf,
	func(...ir.Type) (ir.Type, error) { return ir.Type{DType: ir.Float32, Shape: ir.Shape{}}, nil })

type exNormalize struct{}

func (exNormalize) Forward(x *tensor.Tensor) *tensor.Tensor { return x.Mul(exInvSqrtLen(x)) }

// A Go function over tensors that reads what is symbolic while tracing is
// wrapped with Wrap: one call_function node, its result type from a rule.
func ExampleWrap() {
	g, err := tracer.Trace(exNormalize{}, tracer.MustParseInputs("x=f32[N,4]"))
	fmt.Println(targets(g), err)
	x := tensor.FromFloat32([]float32{4, 8, 12, 16}, 4, 1)
	fmt.Println(exNormalize{}.Forward(x).Float32s())
	// Output:
	// call_function example_inv_sqrt_len, call_method mul <nil>
	// [2 4 6 8]
}

// scaleLeaf is a user submodule whose Forward loops on values.
type scaleLeaf struct{}

func (*scaleLeaf) Forward(x *tensor.Tensor) *tensor.Tensor {
	for x.Sum().Item() > 100 {
		x = x.MulScalar(0.5)
	}
	return x
}

type linearThenSub struct {
	Linear *nn.Linear
	Sub    *scaleLeaf
}

func (m *linearThenSub) Forward(x *tensor.Tensor) *tensor.Tensor {
	return nn.Call(m.Sub, m.Linear.Forward(x))
}

// Standard modules are leaves and user modules are traced through; Leaf
// (fxgen -leaf) keeps a user module as one call_module node instead, never
// traced through, so it may hold dynamic control flow: the compiled model
// calls its Forward.
func ExampleLeaf() {
	m := &linearThenSub{Linear: nn.NewLinear(4, 4), Sub: &scaleLeaf{}}
	_, err := tracer.Trace(m, tracer.MustParseInputs("x=f32[N,4]"))
	fmt.Println("traced through:", err != nil)
	g, err := tracer.Trace(m, tracer.MustParseInputs("x=f32[N,4]"), tracer.Leaf("sub"))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(targets(g), g.Modules["sub"].Results)
	// Output:
	// traced through: true
	// call_module linear, call_module sub [f32[N,4]]
}

// IsLeaf decides leaves by a rule of one's own: here every module is one,
// standard or not.
func ExampleIsLeaf() {
	m := &linearThenSub{Linear: nn.NewLinear(4, 4), Sub: &scaleLeaf{}}
	g, _ := tracer.Trace(m, tracer.MustParseInputs("x=f32[N,4]"), tracer.IsLeaf(func(path, typeName string, std bool) bool { return true }))
	fmt.Println(targets(g))
	// Output:
	// call_module linear, call_module sub
}

// LeafRule declares a leaf's result types, so that its Forward does not
// run at all while tracing.
func ExampleLeafRule() {
	m := &linearThenSub{Linear: nn.NewLinear(4, 4), Sub: &scaleLeaf{}}
	g, _ := tracer.Trace(m, tracer.MustParseInputs("x=f32[N,4]"),
		tracer.LeafRule("scaleLeaf", func(args ...ir.Type) ([]ir.Type, error) { return args, nil }))
	fmt.Println(g.Modules["sub"].Results)
	// Output:
	// [f32[N,4]]
}

type exConstructors struct{}

func (exConstructors) Forward(x *tensor.Tensor) *tensor.Tensor {
	return x.Add(tensor.Zeros(4)).Add(tensor.Ones(4)).Add(tensor.Rand(42, 4)).Add(tensor.Arange(4))
}

// Tensor constructors inside Forward are nodes, not baked-in values.
func Example_constructors() {
	g, _ := tracer.Trace(exConstructors{}, tracer.MustParseInputs("x=f32[N,4]"))
	for _, n := range g.FindNodes(ir.CallFunction, "") {
		fmt.Println(n.Target, n.Kwargs())
	}
	// Output:
	// zeros [{shape [4]}]
	// ones [{shape [4]}]
	// rand [{shape [4]} {seed 42}]
	// arange [{end 4}]
}

type clsToken struct{ Cls *tensor.Tensor }

func (m *clsToken) Forward(x *tensor.Tensor) *tensor.Tensor {
	n := x.Size(0)
	return tensor.Cat([]*tensor.Tensor{m.Cls.Expand(n, -1, -1), x}, 1).View(n, -1)
}

// Sizes read with x.Size(i) are ints eagerly and size nodes while tracing;
// View, Reshape, Expand and the constructors take them.
func ExampleTensor_Size() {
	m := &clsToken{Cls: tensor.Zeros(1, 1, 4)}
	x := tensor.Zeros(2, 3, 4)
	fmt.Println(x.Size(0).Int(), m.Forward(x).Shape())
	g, _ := tracer.Trace(m, tracer.MustParseInputs("x=f32[N,3,4]"))
	fmt.Println(targets(g))
	fmt.Println(g.OutputNode().Args()[0].(*ir.Node).Type())
	// Output:
	// 2 [2 16]
	// call_method size, get_attr cls, call_method expand, call_function cat, call_method view
	// f32[N,16]
}

type addRelu struct{}

func (addRelu) Forward(a, b *tensor.Tensor) *tensor.Tensor { return tensor.Relu(tensor.Add(a, b)) }

type mulPair struct{}

func (mulPair) Forward(a, b *tensor.Tensor) *tensor.Tensor { return tensor.Mul(a, b) }

type methodSpelling struct{}

func (methodSpelling) Forward(x, y *tensor.Tensor) *tensor.Tensor { return x.Add(y).Relu().Neg() }

// Patterns for the subgraph rewriter are traced from Go functions, and
// match the method and the function spelling of an op alike: the pattern
// written tensor.Relu(tensor.Add(a, b)) matches x.Add(y).Relu().
func Example_replacePattern() {
	in := tracer.MustParseInputs("a=f32[N,4]", "b=f32[N,4]")
	pattern, _ := tracer.Trace(addRelu{}, in)
	replacement, _ := tracer.Trace(mulPair{}, in)
	g, _ := tracer.Trace(methodSpelling{}, in)
	matches, err := ir.ReplacePattern(g, pattern, replacement)
	fmt.Println(len(matches), err)
	fmt.Println(targets(g))
	// Output:
	// 1 <nil>
	// call_function mul, call_method neg
}
