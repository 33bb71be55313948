// This file adds the vision models to the golden files and compares their
// graphs with the ones torch.fx gives for the PyTorch models.

package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/tracer"
)

// TestVisionGraphsMatchTorchFX compares each vision model's traced graph
// with the one torch.fx.symbolic_trace gives for the PyTorch model
// (example_models/<name>/testdata/torch_fx.txt, written by the parity
// scripts): the same node count, counts per opcode and per target (module
// type for call_module), and the same node names, opcodes and targets in
// the same order.
func TestVisionGraphsMatchTorchFX(t *testing.T) {
	for _, m := range goldenModels {
		if !m.vision {
			continue
		}
		t.Run(m.name, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join("..", "example_models", m.name, "testdata", "torch_fx.txt"))
			if err != nil {
				t.Fatal(err)
			}
			g, err := tracer.Trace(m.root(), tracer.MustParseInputs(m.inputs...))
			if err != nil {
				t.Fatal(err)
			}
			// The first line names the tracer (and torch's version).
			_, wantBody, _ := strings.Cut(string(want), "\n")
			_, gotBody, _ := strings.Cut(torchFXListing(g), "\n")
			if diff := cmp.Diff(strings.Split(wantBody, "\n"), strings.Split(gotBody, "\n")); diff != "" {
				t.Errorf("traced graph differs from torch.fx's (-torch.fx +fxgen):\n%s", diff)
			}
		})
	}
}

// torchFXListing prints g in the format of the torch_fx.txt files: node
// counts by opcode, by opcode and target (the module type for call_module,
// as torch's class name), then each node's opcode, name and target.
func torchFXListing(g *ir.Graph) string {
	var b strings.Builder
	nodes := g.Nodes()
	fmt.Fprintf(&b, "# fxgen trace\nnodes %d\n\n# nodes by opcode\n", len(nodes))
	byOp, byTarget := map[ir.Opcode]int{}, map[string]int{}
	for _, n := range nodes {
		byOp[n.Op]++
		switch n.Op {
		case ir.CallModule:
			byTarget[fmt.Sprintf("%-14s %-20s", n.Op, g.Modules[n.Target].Kind)]++
		case ir.CallFunction, ir.CallMethod:
			byTarget[fmt.Sprintf("%-14s %-20s", n.Op, n.Target)]++
		}
	}
	for _, op := range []ir.Opcode{ir.Placeholder, ir.GetAttr, ir.CallFunction, ir.CallMethod, ir.CallModule, ir.Output} {
		if byOp[op] > 0 {
			fmt.Fprintf(&b, "%-14s %d\n", op, byOp[op])
		}
	}
	b.WriteString("\n# nodes by opcode and target (module type for call_module)\n")
	keys := make([]string, 0, len(byTarget))
	for k := range byTarget {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "%s %d\n", k, byTarget[k])
	}
	b.WriteString("\n# nodes: opcode name target\n")
	for _, n := range nodes {
		fmt.Fprintf(&b, "%-14s %-24s %s\n", n.Op, n.Name, n.Target)
	}
	return b.String()
}
