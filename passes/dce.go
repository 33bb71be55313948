// This file defines the dce pass: dead code elimination.

package passes

// DCE erases the nodes whose results nothing uses (placeholders and the
// output stay): the leftovers of other rewrites, such as a batch_norm's
// statistics once folded, or values a model computes and drops.
var DCE = &Pass{
	Name: "dce",
	Doc:  "dce erases nodes whose results are unused, except placeholders and the output (ir.Graph.EliminateDeadCode).",
	Run: func(c *Context) (any, error) {
		c.Graph.EliminateDeadCode()
		return nil, nil
	},
}
