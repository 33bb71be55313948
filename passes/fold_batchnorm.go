// This file defines the fold-batchnorm pass: a batch_norm after a conv2d
// becomes the conv2d's weight and bias.

package passes

import (
	"fmt"

	"github.com/fxgen/fxgen/ir"
)

// FoldBatchNorm rewrites conv2d(x, W, B) → batch_norm(·, γ, β, μ, σ², eps),
// where the batch_norm (inference, running statistics) is the conv2d's
// only user and W, B and the statistics depend on no input, into one
// conv2d(x, W', B') with
//
//	s  = γ / √(σ² + eps)          (γ absent: 1 / √(σ² + eps))
//	W' = W · reshape(s, [-1, 1, 1, 1])
//	B' = (B - μ)·s + β            (B absent: -μ·s; β absent: no + β)
//
// written as ordinary graph ops over the get_attr nodes, so that the
// emitter computes W' and B' once in the constructor (they depend on no
// input). Run lower-modules first so that Conv2d and BatchNorm2d modules
// are conv2d and batch_norm calls. The folded convolution keeps the
// conv2d's name and position.
var FoldBatchNorm = &Pass{
	Name: "fold-batchnorm",
	Doc: "fold-batchnorm folds an inference batch_norm that is the only user of a conv2d into the conv2d's weight " +
		"and bias, computed by graph ops over the parameters (hoisted to the constructor by the emitter).",
	Requires: []*Pass{ParamOnly},
	Run:      rewrite(foldBatchNorm),
}

func foldBatchNorm(g *ir.Graph, paramOnly map[*ir.Node]bool) error {
	for _, bn := range g.Nodes() {
		if bn.Graph() == nil || !isCall(bn, ir.OpBatchNorm) {
			continue
		}
		conv, ok := bn.Args()[0].(*ir.Node)
		if !ok || !isCall(conv, ir.OpConv2d) || onlyUser(conv) != bn || !allParamOnly(paramOnly, bn.Args()[1:]) ||
			!allParamOnly(paramOnly, conv.Args()[1:]) {
			continue
		}
		if err := foldOne(conv, bn); err != nil {
			return fmt.Errorf("node %s: %v", bn.Name, err)
		}
	}
	return nil
}

// allParamOnly reports whether every node among args depends on no input.
func allParamOnly(paramOnly map[*ir.Node]bool, args []ir.Arg) bool {
	for _, a := range args {
		if n, ok := a.(*ir.Node); ok && !paramOnly[n] {
			return false
		}
	}
	return true
}

func foldOne(conv, bn *ir.Node) error {
	ca, ba := conv.Args(), bn.Args()
	x, w, b := ca[0], ca[1], ca[2]
	gamma, beta, mean, variance := ba[1], ba[2], ba[3], ba[4]
	eps := kwarg(bn, "eps")
	// Every new node goes just before the batch_norm, after every operand.
	var err error
	named := func(name, op string, args []ir.Arg, kw ...ir.Kwarg) *ir.Node {
		if err != nil {
			return nil
		}
		var n *ir.Node
		n, err = createNamedBefore(bn, name, op, args, kw...)
		return n
	}
	// Every name derives from the convolution's, never from a count of
	// the ops in the graph, so that folding one more batch norm renames
	// nothing else.
	p := conv.Name + "_bn_"
	std := named(p+"std", ir.OpSqrt, []ir.Arg{named(p+"var_eps", ir.OpAdd, []ir.Arg{variance, eps})})
	var num ir.Arg = 1.0
	if gamma != nil {
		num = gamma
	}
	scale := named(p+"scale", ir.OpDiv, []ir.Arg{num, std})
	w2 := named(conv.Name+"_folded_weight", ir.OpMul, []ir.Arg{w, named(p+"scale_4d", ir.OpReshape, []ir.Arg{scale}, ir.Kwarg{Name: "shape", Value: []int{-1, 1, 1, 1}})})
	var shifted *ir.Node
	if b != nil {
		shifted = named(p+"shift", ir.OpSub, []ir.Arg{b, mean})
	} else {
		shifted = named(p+"shift", ir.OpNeg, []ir.Arg{mean})
	}
	biasName := conv.Name + "_folded_bias"
	var b2 *ir.Node
	if beta != nil {
		b2 = named(biasName, ir.OpAdd, []ir.Arg{named(p+"shift_scaled", ir.OpMul, []ir.Arg{shifted, scale}), beta})
	} else {
		b2 = named(biasName, ir.OpMul, []ir.Arg{shifted, scale})
	}
	folded := named(conv.Name+"_folded", ir.OpConv2d, []ir.Arg{x, w2, b2}, conv.Kwargs()...)
	if err != nil {
		return err
	}
	if _, err := bn.ReplaceAllUsesWith(folded, nil); err != nil {
		return err
	}
	g := bn.Graph()
	if err := g.EraseNode(bn); err != nil {
		return err
	}
	_, err = replaceNode(conv, folded)
	return err
}
