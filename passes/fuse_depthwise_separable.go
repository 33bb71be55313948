// This file defines the fuse-depthwise-separable pass: a 1×1 convolution,
// a 3×3 depthwise one and a 1×1 one after it become one kernel that keeps
// the expanded channels in cache.

package passes

import (
	"fmt"

	"github.com/fxgen/fxgen/ir"
)

// FuseDepthwiseSeparable rewrites a chain of three NCHW convolutions, as in
// MobileNetV2's inverted-residual blocks, into depthwise_separable: a 1×1
// expansion (conv2d or conv2d_act, stride 1, no padding) whose only user
// is a 3×3 depthwise convolution (groups = its channels, stride 1 or 2,
// padding 1, conv2d or conv2d_act) whose only user is a 1×1 projection
// (conv2d, or conv2d_residual without an activation, whose residual the
// fused op adds), every weight and bias computed from the parameters
// alone. The fused kernel computes the block a band of image rows at a
// time, so that the expanded images, the block's largest values, stay in
// cache; it does so only for blocks whose expanded image takes at least
// depthwiseSeparableMinBytes, since smaller ones stay in cache between
// three calls anyway. The fused node takes the projection's name and
// position.
var FuseDepthwiseSeparable = &Pass{
	Name: "fuse-depthwise-separable",
	Doc: "fuse-depthwise-separable fuses a 1×1 convolution → 3×3 depthwise convolution (stride 1 or 2, padding 1) → 1×1 " +
		"convolution chain on large NCHW images into depthwise_separable, which computes it a band of rows at a time.",
	Requires: []*Pass{ParamOnly},
	Run:      rewrite(fuseDepthwiseSeparable),
}

// depthwiseSeparableMinBytes is the smallest expanded image (E·H·W
// floats, one sample) whose block the pass fuses (a stride-2 block's too:
// 16→96→24 at 112² 17.5 → 8.4 ms on AVX2, 8.2 → 5.9 on AVX-512; 24→144→32
// at 56² 3.95 → 3.75 and 2.81 → 2.72). Xeon SPR, 1 worker,
// batch 8, the block and its three convolutions: 24→144→24 at 56² (1.8
// MB) 6.1 against 7.5 ms on AVX2, 4.1 against 5.0 on AVX-512; 32→192→32
// at 28² (0.6 MB) 2.75 against 2.63 and 1.88 against 1.71.
const depthwiseSeparableMinBytes = 1 << 20

func fuseDepthwiseSeparable(g *ir.Graph, paramOnly map[*ir.Node]bool) error {
	for _, n := range g.Nodes() {
		if n.Graph() == nil {
			continue
		}
		expand, depthwise, ok := depthwiseSeparableChain(n, paramOnly)
		if !ok {
			continue
		}
		pa, da, ea := n.Args(), depthwise.Args(), expand.Args()
		var res ir.Arg
		if isCall(n, ir.OpConv2dResidual) {
			res = pa[3]
		}
		args := []ir.Arg{ea[0], ea[1], optionalArg(ea, 2), da[1], optionalArg(da, 2), pa[1], optionalArg(pa, 2), res}
		fused, err := createBefore(n, ir.OpDepthwiseSeparable, args, ir.Kwarg{Name: "stride", Value: kwarg(depthwise, "stride").([]int)[0]},
			ir.Kwarg{Name: "act1", Value: convAct(expand)}, ir.Kwarg{Name: "act2", Value: convAct(depthwise)})
		if err != nil {
			return fmt.Errorf("node %s: %v", n.Name, err)
		}
		if _, err := replaceNode(n, fused); err != nil {
			return fmt.Errorf("node %s: %v", n.Name, err)
		}
		for _, dead := range []*ir.Node{depthwise, expand} {
			if err := g.EraseNode(dead); err != nil {
				return fmt.Errorf("node %s: %v", dead.Name, err)
			}
		}
	}
	return nil
}

// depthwiseSeparableChain returns the expansion and depthwise convolution
// of the block whose projection is n, when the pass fuses it.
func depthwiseSeparableChain(n *ir.Node, paramOnly map[*ir.Node]bool) (expand, depthwise *ir.Node, ok bool) {
	if paramOnly[n] || !(isCall(n, ir.OpConv2d) || isCall(n, ir.OpConv2dResidual) && convAct(n) == ir.ActNone) {
		return nil, nil, false
	}
	// Only the projection may add a residual: the fused op has no place
	// for one on the expansion or the depthwise convolution.
	depthwise, _ = n.Args()[0].(*ir.Node)
	if depthwise == nil || onlyUser(depthwise) != n || isCall(depthwise, ir.OpConv2dResidual) || !isConvKind(depthwise, 3, 1, 2, paramOnly) {
		return nil, nil, false
	}
	expand, _ = depthwise.Args()[0].(*ir.Node)
	if expand == nil || onlyUser(expand) != depthwise || isCall(expand, ir.OpConv2dResidual) ||
		!isConvKind(expand, 1, 0, 1, paramOnly) || !isConvKind(n, 1, 0, 1, paramOnly) {
		return nil, nil, false
	}
	e := expand.Type().Shape
	dims, ok := e[1:].Ints()
	// One output channel per channel: weights [E, 1, 3, 3].
	wd, okw := depthwise.Args()[1].(*ir.Node).Type().Shape.Ints()
	if !ok || !okw || kwarg(depthwise, "groups").(int) != dims[0] || wd[0] != dims[0] || wd[1] != 1 ||
		4*dims[0]*dims[1]*dims[2] < depthwiseSeparableMinBytes {
		return nil, nil, false
	}
	if kwarg(expand, "groups").(int) != 1 || kwarg(n, "groups").(int) != 1 {
		return nil, nil, false
	}
	return expand, depthwise, true
}

// isConvKind reports whether n is conv2d or conv2d_act (or, for the
// projection, conv2d_residual) of a square k×k kernel with padding pad
// and a stride of 1, or of 1 or 2 (the same both ways) when maxStride is
// 2, on a float32 image of known channels and size, its weight and bias
// computed from the parameters alone.
func isConvKind(n *ir.Node, k, pad, maxStride int, paramOnly map[*ir.Node]bool) bool {
	if !(isCall(n, ir.OpConv2d) || isCall(n, ir.OpConv2dAct) || isCall(n, ir.OpConv2dResidual)) || len(n.Types) != 1 {
		return false
	}
	args := n.Args()
	x, _ := args[0].(*ir.Node)
	w, _ := args[1].(*ir.Node)
	if x == nil || w == nil || !paramOnly[w] || len(x.Types) != 1 || x.Type().DType != ir.Float32 {
		return false
	}
	if b, _ := optionalArg(args, 2).(*ir.Node); b != nil && !paramOnly[b] {
		return false
	}
	if xs := x.Type().Shape; len(xs) != 4 {
		return false
	} else if _, ok := xs[1:].Ints(); !ok {
		return false
	}
	wd, ok := w.Type().Shape.Ints()
	stride := kwarg(n, "stride").([]int)
	return ok && len(wd) == 4 && wd[2] == k && wd[3] == k && len(stride) > 0 && stride[0] <= maxStride &&
		allEqual(stride, stride[0]) && allEqual(kwarg(n, "padding").([]int), pad)
}

// convAct returns the act attribute of a fused convolution, ActNone for
// conv2d.
func convAct(n *ir.Node) int {
	if a, ok := n.Kwarg("act"); ok {
		return a.(int)
	}
	return ir.ActNone
}

// optionalArg returns args[i], or nil past the end.
func optionalArg(args []ir.Arg, i int) ir.Arg {
	if i < len(args) {
		return args[i]
	}
	return nil
}
