// This file adds the sequence and recommender models to the golden files
// and compares their graphs with the ones torch.fx gives for the PyTorch
// models.

package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/fxgen/fxgen/tracer"
)

// sequenceFXDiffs lists, per model, how the counts of nodes by opcode and
// target differ from torch.fx's for the PyTorch model of
// scripts/torch_reference.py (fxgen minus torch.fx). Everything not listed
// must match, in particular every call_module count per module type and
// the total node count. The reasons:
//
//   - x[:, t, :] and sparse[:, i] are Python indexing, which torch.fx
//     records as getitem; Go has no indexing operator on tensors, so the
//     models call x.Select(1, t) (call_method select).
//   - DLRM's z[:, li, lj] is advanced indexing with two constant index
//     tensors (two get_attr and one getitem); the Go model flattens z and
//     gathers the 36 entries with one constant flat index (flatten,
//     get_attr, index_select). torch.bmm is matmul here.
//   - The transformer's causal mask is built once in Forward from arange
//     (arange, reshape, reshape, gt: recorded nodes), where the PyTorch
//     model builds torch.triu(torch.ones(...)) in each block and torch.fx,
//     seeing no proxy, bakes each into a constant (4 get_attr). Scaling by
//     1/√64 is x / 8 (truediv) in Python, DivScalar (call_method div) in Go.
var sequenceFXDiffs = map[string][]string{
	"lstm": {
		"call_function getitem -16",
		"call_method select +16",
	},
	"dlrm": {
		"call_function bmm -1",
		"call_function getitem -9",
		"call_function matmul +1",
		"call_method flatten +1",
		"call_method index_select +1",
		"call_method select +8",
		"get_attr -1",
	},
	"transformer": {
		"call_function arange +1",
		"call_function truediv -4",
		"call_method div +4",
		"call_method gt +1",
		"call_method reshape +2",
		"get_attr -4",
	},
}

// TestSequenceGraphsAgainstTorchFX compares the node counts by opcode and
// target of each traced graph with torch.fx's
// (example_models/<name>/testdata/torch_fx.txt): they must differ exactly
// as sequenceFXDiffs says, and the total node counts must agree.
func TestSequenceGraphsAgainstTorchFX(t *testing.T) {
	for _, m := range goldenModels {
		wantDiff, ok := sequenceFXDiffs[m.name]
		if !ok {
			continue
		}
		t.Run(m.name, func(t *testing.T) {
			torch, err := os.ReadFile(filepath.Join("..", "example_models", m.name, "testdata", "torch_fx.txt"))
			if err != nil {
				t.Fatal(err)
			}
			g, err := tracer.Trace(m.root(), tracer.MustParseInputs(m.inputs...))
			if err != nil {
				t.Fatal(err)
			}
			ours := torchFXListing(g)
			if a, b := listingNodes(t, string(torch)), listingNodes(t, ours); a != b {
				t.Errorf("got %d nodes, torch.fx has %d", b, a)
			}
			theirs, mine := targetCounts(string(torch)), targetCounts(ours)
			var diff []string
			for k := range mergeKeys(theirs, mine) {
				if d := mine[k] - theirs[k]; d != 0 {
					diff = append(diff, fmt.Sprintf("%s %+d", k, d))
				}
			}
			sort.Strings(diff)
			if got, want := strings.Join(diff, "\n"), strings.Join(wantDiff, "\n"); got != want {
				t.Errorf("counts by opcode and target differ from torch.fx's as\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// listingNodes reads the "nodes N" line of a torch_fx.txt listing.
func listingNodes(t *testing.T, listing string) int {
	for _, line := range strings.Split(listing, "\n") {
		if rest, ok := strings.CutPrefix(line, "nodes "); ok {
			n, err := strconv.Atoi(strings.TrimSpace(rest))
			if err != nil {
				t.Fatalf("bad line %q", line)
			}
			return n
		}
	}
	t.Fatalf("no nodes line in listing")
	return 0
}

// targetCounts reads the section "nodes by opcode and target" of a
// listing as "opcode target" → count, except get_attr nodes, which count
// as "get_attr" (fxgen's listing does not break them down by target).
func targetCounts(listing string) map[string]int {
	out := map[string]int{}
	_, sec, _ := strings.Cut(listing, "# nodes by opcode\n")
	sec, _, _ = strings.Cut(sec, "\n\n")
	for _, line := range strings.Split(sec, "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "get_attr" {
			out["get_attr"], _ = strconv.Atoi(f[1])
		}
	}
	_, sec, _ = strings.Cut(listing, "# nodes by opcode and target")
	sec, _, _ = strings.Cut(sec, "\n\n")
	for _, line := range strings.Split(sec, "\n")[1:] {
		f := strings.Fields(line)
		if len(f) != 3 || f[0] == "get_attr" {
			continue
		}
		n, _ := strconv.Atoi(f[2])
		out[f[0]+" "+f[1]] = n
	}
	return out
}

func mergeKeys(a, b map[string]int) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}
