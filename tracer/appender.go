// This file holds Appender, which records tensor ops into an existing graph.

package tracer

import (
	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/tensor"
)

// Appender records ops on its proxies into an existing graph at the
// graph's insertion point, like torch.fx's GraphAppendingTracer: a
// transformation writes a replacement as ordinary tensor code over proxies
// of the graph's nodes.
type Appender struct{ t *tracer }

// NewAppender returns an Appender for g. Concrete tensors used with its
// proxies become constants of g.
func NewAppender(g *ir.Graph) *Appender {
	return &Appender{t: &tracer{g: g, w: walk(nil), attrs: map[*tensor.Tensor]*ir.Node{}}}
}

// Proxy returns a symbolic tensor standing for node n of the graph.
func (a *Appender) Proxy(n *ir.Node) *tensor.Tensor { return tensor.NewSymbolic(n, a.t) }

// Node returns the node a proxy stands for (recording a constant for a
// concrete tensor).
func (a *Appender) Node(x *tensor.Tensor) *ir.Node { return a.t.node(x) }
