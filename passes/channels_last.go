// This file defines the channels-last pass: chains of 1×1 and depthwise
// convolutions (MobileNet's blocks) run on channels-last images.

package passes

import (
	"fmt"
	"math"
	"slices"

	"github.com/fxgen/fxgen/ir"
)

// ChannelsLast rewrites chains of wide 1×1 and 3×3 depthwise convolutions
// (conv2d or conv2d_act) to run on channels-last images, [N,H,W,C]: a 1×1
// convolution of at least channelsLastMin channels in and out, stride 1,
// no padding, becomes a linear layer over the pixels' channels (the GEMM
// with the pixels as its rows, nothing transposed), and a depthwise one
// (groups = channels, 3×3, padding at most 1, at least channelsLastMin
// channels) depthwise_conv2d_nhwc. Each rewritten convolution is
// permute(·, [0,2,3,1]) of its input, the channels-last op, then
// permute(·, [0,3,1,2]) back; the pass then drops each permute back that
// only the next convolution's permute undoes, so that a chain reorders
// its images once at its start and once at its end. A convolution is
// rewritten only next to another (its input's producer or a user), since
// alone it would only add the two reorders: a depthwise one when a 1×1
// one computes its input (the expansion of an inverted-residual block), a
// 1×1 one when it computes or takes such a depthwise one's result (the
// projection). The printed graph shows the reorders that remain as
// permute nodes.
//
// The layout is chosen by measurement (Xeon SPR, 1 worker, batch 8,
// MobileNetV2-style blocks of a 1×1 expansion, a depthwise 3×3 and a 1×1
// projection, each with ReLU6 but the last, in NCHW against channels
// last): 160→960→160 at 7² 2.01 → 1.70 ms on AVX-512 and 3.15 → 2.72 ms
// on AVX2, 96→576→96 at 14² 3.12 → 2.85 and 4.75 → 4.35 ms, the stride-2
// 96→576→160 at 14² 2.11 → 1.86 and 3.23 → 2.90 ms; but 24→144→24 at 56²
// 5.50 → 6.64 ms on AVX-512 and 32→192→32 at 28² 1.86 → 2.07 ms: narrow
// 1×1 products fill the GEMM's tiles better over an NCHW image (the
// channels as rows, the pixels as columns), hence channelsLastMin.
var ChannelsLast = &Pass{
	Name: "channels-last",
	Doc: "channels-last runs chains of wide 1×1 and 3×3 depthwise convolutions on channels-last images: linear and " +
		"depthwise_conv2d_nhwc between one permute at the chain's start and one at its end.",
	Requires: []*Pass{ParamOnly},
	Run:      rewrite(channelsLast),
}

// channelsLastMin is the fewest channels a convolution the channels-last
// pass rewrites has (in and out, for a 1×1).
const channelsLastMin = 64

var (
	toChannelsLast  = []int{0, 2, 3, 1}
	toChannelsFirst = []int{0, 3, 1, 2}
)

func channelsLast(g *ir.Graph, paramOnly map[*ir.Node]bool) error {
	kinds := map[*ir.Node]string{}
	for _, n := range g.Nodes() {
		if k := channelsLastKind(n, paramOnly); k != "" {
			kinds[n] = k
		}
	}
	// A depthwise convolution joins when a 1×1 one computes its input;
	// a 1×1 one when it computes or takes such a depthwise one's result.
	keep := map[*ir.Node]bool{}
	for n, k := range kinds {
		if x, ok := n.Args()[0].(*ir.Node); ok && k == "depthwise" && kinds[x] != "" && kinds[x] != "depthwise" {
			keep[n], keep[x] = true, true
		}
	}
	for n, k := range kinds {
		if x, ok := n.Args()[0].(*ir.Node); ok && k != "depthwise" && keep[x] && kinds[x] == "depthwise" {
			keep[n] = true
		}
	}
	var chain []*ir.Node
	for _, n := range g.Nodes() {
		if keep[n] {
			chain = append(chain, n)
		}
	}
	for _, n := range chain {
		if err := toChannelsLastNode(n, kinds[n]); err != nil {
			return fmt.Errorf("node %s: %v", n.Name, err)
		}
	}
	return dropReorderPairs(g)
}

// channelsLastKind returns "linear", "linear_residual" (a 1×1
// conv2d_residual without an activation) or "depthwise" for a convolution
// the pass can rewrite, else "".
func channelsLastKind(n *ir.Node, paramOnly map[*ir.Node]bool) string {
	residual := isCall(n, ir.OpConv2dResidual)
	if paramOnly[n] || residual && convAct(n) != ir.ActNone { // linear_residual has no activation
		return ""
	}
	pointwise := isConvKind(n, 1, 0, 1, paramOnly)
	depthwise := !residual && (isConvKind(n, 3, 1, math.MaxInt, paramOnly) || isConvKind(n, 3, 0, math.MaxInt, paramOnly))
	if !pointwise && !depthwise {
		return ""
	}
	// isConvKind saw the channels and the weight's dims known.
	c := n.Args()[0].(*ir.Node).Type().Shape[1].Coef
	wd, _ := n.Args()[1].(*ir.Node).Type().Shape.Ints()
	groups := kwarg(n, "groups").(int)
	switch {
	case c < channelsLastMin:
		return ""
	case pointwise && groups == 1 && wd[0] >= channelsLastMin && residual:
		return "linear_residual"
	case pointwise && groups == 1 && wd[0] >= channelsLastMin:
		return "linear"
	case depthwise && wd[1] == 1 && groups == c && wd[0] == c:
		return "depthwise"
	}
	return ""
}

// toChannelsLastNode replaces the convolution n with its channels-last
// form between two permutes.
func toChannelsLastNode(n *ir.Node, kind string) error {
	args := n.Args()
	bias, act := optionalArg(args, 2), convAct(n)
	in, err := createNamedBefore(n, n.Name+"_in", ir.OpPermute, []ir.Arg{args[0]}, ir.Kwarg{Name: "dims", Value: slices.Clone(toChannelsLast)})
	if err != nil {
		return err
	}
	var body *ir.Node
	switch kind {
	case "linear", "linear_residual":
		wd, _ := args[1].(*ir.Node).Type().Shape.Ints()
		w, err := createNamedBefore(n, n.Name+"_weight_2d", ir.OpReshape, []ir.Arg{args[1]}, ir.Kwarg{Name: "shape", Value: []int{wd[0], wd[1]}})
		if err != nil {
			return err
		}
		op, opArgs, kw := ir.OpLinear, []ir.Arg{in, w, bias}, []ir.Kwarg(nil)
		switch {
		case kind == "linear_residual":
			// The residual in channels-last order: the permute some
			// convolution of the chain already made of it, or a new one.
			res, err := channelsLastOf(n, args[3].(*ir.Node))
			if err != nil {
				return err
			}
			op, opArgs = ir.OpLinearResidual, append(opArgs, res)
		case act != ir.ActNone:
			op, kw = ir.OpLinearAct, []ir.Kwarg{{Name: "act", Value: act}}
		}
		body, err = createNamedBefore(n, n.Name+"_nhwc", op, opArgs, kw...)
		if err != nil {
			return err
		}
	default:
		body, err = createNamedBefore(n, n.Name+"_nhwc", ir.OpDepthwiseConv2dNhwc, []ir.Arg{in, args[1], bias},
			ir.Kwarg{Name: "stride", Value: kwarg(n, "stride")}, ir.Kwarg{Name: "padding", Value: kwarg(n, "padding")},
			ir.Kwarg{Name: "act", Value: act})
		if err != nil {
			return err
		}
	}
	out, err := createBefore(n, ir.OpPermute, []ir.Arg{body}, ir.Kwarg{Name: "dims", Value: slices.Clone(toChannelsFirst)})
	if err != nil {
		return err
	}
	_, err = replaceNode(n, out)
	return err
}

// channelsLastOf returns a permute of x to channels last that comes
// before n: one x already has, or a new one just before n.
func channelsLastOf(n, x *ir.Node) (*ir.Node, error) {
	for _, u := range x.Users() {
		if isPermute(u, toChannelsLast) && precedes(u, n) {
			return u, nil
		}
	}
	return createBefore(n, ir.OpPermute, []ir.Arg{x}, ir.Kwarg{Name: "dims", Value: slices.Clone(toChannelsLast)})
}

// dropReorderPairs makes every user of permute(permute(x, [0,3,1,2]),
// [0,2,3,1]) use x, and erases the permutes left without users.
func dropReorderPairs(g *ir.Graph) error {
	for _, n := range g.Nodes() {
		if n.Graph() == nil || !isPermute(n, toChannelsLast) {
			continue
		}
		back, ok := n.Args()[0].(*ir.Node)
		if !ok || !isPermute(back, toChannelsFirst) {
			continue
		}
		x, _ := back.Args()[0].(*ir.Node)
		if err := absorb(n, x); err != nil {
			return err
		}
		if len(back.Users()) == 0 {
			if err := g.EraseNode(back); err != nil {
				return err
			}
		}
	}
	return nil
}

// precedes reports whether a comes before b in their graph.
func precedes(a, b *ir.Node) bool {
	for m := a.Next(); m != nil; m = m.Next() {
		if m == b {
			return true
		}
	}
	return false
}

// isPermute reports whether n is permute(·, dims).
func isPermute(n *ir.Node, dims []int) bool {
	if !isCall(n, ir.OpPermute) {
		return false
	}
	d, _ := kwarg(n, "dims").([]int)
	return slices.Equal(d, dims)
}

func allEqual(v []int, want int) bool {
	for _, x := range v {
		if x != want {
			return false
		}
	}
	return true
}
