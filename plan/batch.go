// This file holds BatchChunk, the analysis of which graphs may run a slice
// of their batch at a time.

package plan

import (
	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/runtime"
)

// batchChunkBytes is about how many bytes the largest value of a slice of
// the batch may take, so that each layer's output is still in the core's
// L2 cache when the next layer reads it (512 KB: a Zen 3 core's L2, a
// quarter of a Sapphire Rapids core's). Xeon SPR, avx512, 1 worker,
// compiled ResNet-20 at batch 64 in slices of 64, 16 and 8 images
// (benchstat n=8): 30.8, 29.2 and 29.4 ms.
const batchChunkBytes = 512 << 10

// batchChunkMinBytes is the smallest value per sample worth splitting a
// batch for: a model of smaller values (a linear layer's rows) runs its
// whole batch through each layer, which its matrix products want.
const batchChunkMinBytes = 16 << 10

// BatchChunk returns how many samples of a batch the compiled Forward of g
// computes at a time, or 0 when it computes the whole batch layer by
// layer. It splits a batch when g keeps its samples apart and its values
// are large: one input tensor and one result, both of first dimension
// the input's symbolic batch size N, and every value that depends on the
// input computed by an op that works sample by sample (ir.Op.PerSample,
// pointwise ops, reshapes) with N as its first dimension and in no other,
// and at least two dimensions. The slice holds as many samples as keep
// the largest value within batchChunkBytes, and the graph's parameters,
// which every slice reads again, must come to at most a quarter of what a
// slice's values do. paramOnly is ParamOnly(g).
func BatchChunk(g *ir.Graph, paramOnly map[*ir.Node]bool) int {
	if g.Forward == nil || len(g.Forward.Params) != 1 || !g.Forward.Params[0].Tensor || g.Forward.Results != 1 {
		return 0
	}
	phs := g.Placeholders()
	if len(phs) != 1 || len(phs[0].Types) != 1 {
		return 0
	}
	batch := phs[0].Type().Shape
	if len(batch) < 2 || batch[0].IsConst() || batch[0].Coef != 1 {
		return 0
	}
	n := batch[0].Sym
	var largest, sum int
	for _, node := range g.Nodes() {
		if paramOnly[node] {
			continue
		}
		switch node.Op {
		case ir.Placeholder, ir.Output:
		case ir.CallFunction, ir.CallMethod:
			if !perSample(node) {
				return 0
			}
		default:
			return 0
		}
		for _, t := range node.Types {
			bytes, ok := sampleBytes(t, n)
			if !ok {
				return 0
			}
			largest, sum = max(largest, bytes), sum+bytes
		}
	}
	out := g.OutputNode()
	if out == nil || len(out.Inputs()) != 1 {
		return 0
	}
	// The result is computed into the caller's rows by an op of Forward,
	// never the input itself or a value of the parameters alone.
	if res := ResolveGetitem(out.Inputs()[0]).Node; res.Op == ir.Placeholder || paramOnly[res] {
		return 0
	}
	if largest < batchChunkMinBytes {
		return 0
	}
	chunk := max(1, batchChunkBytes/largest)
	params := 0
	for _, p := range g.Params {
		if c, ok := p.Type.Shape.Ints(); ok {
			params += p.Type.DType.Size() * runtime.NumElements(c)
		}
	}
	if 4*params > chunk*sum {
		return 0
	}
	return chunk
}

// perSample reports whether node's op computes each sample of a batch
// alone (given sampleBytes's checks of its result): an op marked
// PerSample, a pointwise op or a reshape.
func perSample(node *ir.Node) bool {
	op := ir.LookupOp(node.Target)
	return op != nil && op.Kernel != nil &&
		(op.PerSample || op.Reshape || op.Fusion == ir.FusePointwise || op.Fusion == ir.FuseEpilogue)
}

// sampleBytes returns the bytes of one sample of a value of type t, whose
// first dimension must be n (and no other dimension symbolic), with at
// least two dimensions.
func sampleBytes(t ir.Type, n string) (int, bool) {
	s := t.Shape
	if len(s) < 2 || s[0].Sym != n || s[0].Coef != 1 {
		return 0, false
	}
	rest, ok := s[1:].Ints()
	if !ok {
		return 0, false
	}
	return t.DType.Size() * runtime.NumElements(rest), true
}
