// Package userpass is a user's own fxgen pass, for the end-to-end tests.
package userpass

import (
	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/passes"
)

// Triple makes every multiplication by a number a multiplication by 3.
var Triple = &passes.Pass{
	Name: "triple",
	Doc:  "triple makes every multiplication by a number a multiplication by 3.",
	Run: func(c *passes.Context) (any, error) {
		for _, n := range c.Graph.Nodes() {
			if n.Target == "mul" && len(n.Args()) == 2 && ir.IsNumber(n.Args()[1]) {
				if err := n.SetArgs(n.Args()[0], 3.0); err != nil {
					return nil, err
				}
			}
		}
		return nil, nil
	},
}
