// This file defines the plan-memory pass: workspace slots by liveness.

package passes

import (
	"fmt"
	"slices"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/runtime"
)

// SlotsMeta is the Meta key under which plan-memory records a node's slots:
// an []int with one entry per result, the slot of the workspace that holds
// it, or -1 for a result that needs none (see PlanMemory).
const SlotsMeta = "plan-memory.slots"

// PlanMemory gives every intermediate value of Forward a workspace slot,
// so that values whose lifetimes do not overlap share storage. A value
// lives from the node that computes it to its last use (uses through
// getitem count as uses of the selected result). Values that need no
// workspace get -1: results of parameter-only nodes (ParamOnly, computed
// once by the constructor), graph outputs (fresh arrays each call),
// getitem nodes (they name a result of another node), and views.
//
// A reshape, view, flatten or unsqueeze computed by Forward whose result
// is not a graph output is a view (Meta[AliasMeta]): it shares its input's
// storage under its own shape, and a use of it counts as a use of that
// input, which therefore keeps its slot until the view's last use. Kernels
// never write their inputs, so no view is written through while its
// source is needed.
//
// Slots are assigned greedily in node order: a node's results take free
// slots of their dtype (the best fit by size, else the largest) and the
// slots of values whose last use is that node are freed only after its
// results are placed, so that no kernel writes its output over one of its
// inputs. The exception are kernels made to: the result of a
// linear_residual takes its residual's slot when the residual dies there. The emitter sizes each slot at run time as the largest of its
// values for the actual symbolic sizes and lays the slots out in one
// workspace slice per dtype.
var PlanMemory = &Pass{
	Name: "plan-memory",
	Doc: "plan-memory assigns workspace slots to intermediate values by liveness, so that values whose lifetimes " +
		"do not overlap share storage; it records them in Node.Meta[" + SlotsMeta + "].",
	Run: planMemory,
}

// planSize is the value of every symbol when plan-memory compares sizes.
const planSize = 64

// valueKey names one result of a node.
type valueKey struct {
	n *ir.Node
	i int
}

// resolveGetitem maps a getitem node to the result it selects.
func resolveGetitem(n *ir.Node) valueKey {
	if n.Target == "getitem" && (n.Op == ir.CallFunction || n.Op == ir.CallMethod) {
		if src, ok := n.Args()[0].(*ir.Node); ok {
			idx, _ := n.Kwarg("index")
			if i, ok := idx.(int); ok {
				return valueKey{src, i}
			}
		}
	}
	return valueKey{n, 0}
}

// liveness returns each node's position and, for each value, the position
// of its last use (its own position when unused). A use of a view
// (IsAlias) is a use of the value whose storage it shares.
func liveness(g *ir.Graph) (pos map[*ir.Node]int, last map[valueKey]int) {
	pos = map[*ir.Node]int{}
	last = map[valueKey]int{}
	for i, n := range g.Nodes() {
		pos[n] = i
		for r := range n.Types {
			last[valueKey{n, r}] = i
		}
		for _, in := range n.Inputs() {
			k := root(in)
			if len(in.Types) > 1 {
				// A node with several results used directly (a tuple
				// operand): every result is used.
				for r := range in.Types {
					last[valueKey{in, r}] = i
				}
				continue
			}
			last[k] = i
		}
	}
	return pos, last
}

// needsSlot reports whether result r of n needs a workspace slot.
func needsSlot(n *ir.Node, paramOnly map[*ir.Node]bool, outputs map[valueKey]bool, r int) bool {
	switch n.Op {
	case ir.CallFunction, ir.CallMethod, ir.CallModule:
	default:
		return false
	}
	if paramOnly[n] || outputs[valueKey{n, r}] || IsAlias(n) {
		return false
	}
	return !(n.Target == "getitem" && n.Op != ir.CallModule)
}

// graphOutputs returns the values the output node returns.
func graphOutputs(g *ir.Graph) map[valueKey]bool {
	out := map[valueKey]bool{}
	if o := g.OutputNode(); o != nil {
		for _, in := range o.Inputs() {
			out[resolveGetitem(in)] = true
		}
	}
	return out
}

// elements returns the number of elements of t with every symbol planSize.
func elements(t ir.Type) int {
	syms := map[string]int{}
	for _, d := range t.Shape {
		if !d.IsConst() {
			syms[d.Sym] = planSize
		}
	}
	dims, _ := t.Shape.Eval(syms)
	size := 1
	for _, d := range dims {
		size *= d
	}
	return size
}

func planMemory(g *ir.Graph) error {
	paramOnly := ParamOnly(g)
	outputs := graphOutputs(g)
	for _, n := range g.Nodes() {
		delete(n.Meta, AliasMeta)
		if canAlias(n, paramOnly, outputs) {
			if n.Meta == nil {
				n.Meta = map[string]any{}
			}
			n.Meta[AliasMeta] = true
		}
	}
	_, last := liveness(g)
	type slot struct {
		dtype ir.DType
		size  int // largest value at planSize
	}
	var slots []slot
	free := map[int]bool{}
	// dying[i] are the slots freed after node i.
	dying := map[int][]int{}
	for i, n := range g.Nodes() {
		delete(n.Meta, SlotsMeta)
		var assigned []int
		planned := false
		for r, t := range n.Types {
			if !needsSlot(n, paramOnly, outputs, r) {
				assigned = append(assigned, -1)
				continue
			}
			planned = true
			size := elements(t)
			best := -1
			if s, ok := inPlaceSlot(n, r, i, last); ok {
				// The result takes over the slot of the operand that dies
				// here: it must not be freed after this node.
				best = s
				dying[i] = slices.DeleteFunc(dying[i], func(d int) bool { return d == s })
			} else {
				for s := range free {
					if slots[s].dtype != t.DType {
						continue
					}
					if best < 0 || betterFit(slots[s].size, slots[best].size, size) || slots[s].size == slots[best].size && s < best {
						best = s
					}
				}
			}
			if best < 0 {
				best = len(slots)
				slots = append(slots, slot{dtype: t.DType})
			}
			delete(free, best)
			slots[best].size = max(slots[best].size, size)
			assigned = append(assigned, best)
			end := last[valueKey{n, r}]
			dying[end] = append(dying[end], best)
		}
		if planned {
			if n.Meta == nil {
				n.Meta = map[string]any{}
			}
			n.Meta[SlotsMeta] = assigned
		}
		for _, s := range dying[i] {
			free[s] = true
		}
	}
	return VerifyPlan(g)
}

// betterFit reports whether a slot of size a fits a value of size want
// better than one of size b: the smallest that holds it, else the largest.
func betterFit(a, b, want int) bool {
	switch {
	case a >= want && b >= want:
		return a < b
	case a >= want:
		return true
	case b >= want:
		return false
	}
	return a > b
}

// Slots returns the slots plan-memory recorded for n's results, or nil
// when n has none.
func Slots(n *ir.Node) []int {
	s, _ := n.Meta[SlotsMeta].([]int)
	return s
}

// VerifyPlan checks the slots recorded by plan-memory against the graph as
// it is now: each slot holds one dtype, no two values sharing a slot are
// live at once, and no node writes a slot one of its inputs is in. A graph
// changed after planning fails here instead of computing a wrong answer.
func VerifyPlan(g *ir.Graph) error {
	paramOnly, outputs := ParamOnly(g), graphOutputs(g)
	for _, n := range g.Nodes() {
		if IsAlias(n) && !canAlias(n, paramOnly, outputs) {
			return fmt.Errorf("plan-memory: node %s is planned as a view but cannot be one; plan again", n.Name)
		}
	}
	_, last := liveness(g)
	holder := map[int]valueKey{} // slot → value stored there last
	dtypes := map[int]ir.DType{}
	for i, n := range g.Nodes() {
		slots := Slots(n)
		if slots == nil {
			continue
		}
		if len(slots) != len(n.Types) {
			return fmt.Errorf("plan-memory: node %s has %d slots for %d results; plan again", n.Name, len(slots), len(n.Types))
		}
		inputs := map[int]bool{}
		for _, in := range n.Inputs() {
			k := root(in)
			if s := Slots(k.n); s != nil && k.i < len(s) && s[k.i] >= 0 {
				inputs[s[k.i]] = true
			}
		}
		for r, s := range slots {
			if s < 0 {
				continue
			}
			if d, ok := dtypes[s]; ok && d != n.Types[r].DType {
				return fmt.Errorf("plan-memory: slot %d holds %v and %v values", s, d, n.Types[r].DType)
			}
			dtypes[s] = n.Types[r].DType
			if inputs[s] {
				if is, ok := inPlaceSlot(n, r, i, last); !ok || is != s {
					return fmt.Errorf("plan-memory: node %s writes slot %d, which holds one of its inputs", n.Name, s)
				}
			}
			if prev, ok := holder[s]; ok && last[prev] > i {
				return fmt.Errorf("plan-memory: node %s overwrites slot %d while %s is still used (last at node %d)", n.Name, s, prev.n.Name, last[prev])
			}
			holder[s] = valueKey{n, r}
		}
	}
	return nil
}

// SlotCount returns the number of slots of g's plan.
func SlotCount(g *ir.Graph) int {
	c := 0
	for _, n := range g.Nodes() {
		for _, s := range Slots(n) {
			c = max(c, s+1)
		}
	}
	return c
}

// WorkspaceBytes returns the bytes of workspace g's Forward needs with the
// symbols set to syms: with a plan, the sum of the slots (each as large as
// its largest value, rounded as the emitter rounds); without one, the sum
// of every intermediate value, each in its own array (what the emitter
// allocates without plan-memory).
func WorkspaceBytes(g *ir.Graph, syms map[string]int) int {
	outputs := graphOutputs(g)
	planned := SlotCount(g) > 0
	slotSize := map[int]int{}
	slotBytes := map[int]int{}
	total := 0
	for _, n := range g.Nodes() {
		slots := Slots(n)
		for r, t := range n.Types {
			dims, ok := t.Shape.Eval(syms)
			if !ok {
				continue
			}
			size := 1
			for _, d := range dims {
				size *= d
			}
			bytes := 1
			switch t.DType {
			case ir.Float32:
				bytes = 4
			case ir.Int64:
				bytes = 8
			}
			switch {
			case planned && slots != nil && slots[r] >= 0:
				s := slots[r]
				slotSize[s] = max(slotSize[s], runtime.SlotSize(size))
				slotBytes[s] = bytes
			case !planned && needsSlot(n, nil, outputs, r):
				total += size * bytes
			}
		}
	}
	for s, size := range slotSize {
		total += size * slotBytes[s]
	}
	return total
}

// inPlaceOperands are the ops whose kernel may write its result over one
// operand (by index): the result's slot may be that operand's when the
// operand's value dies at the node.
var inPlaceOperands = map[string]int{"linear_residual": 3}

// inPlaceSlot returns the slot result r of n (at position i) may share
// with its in-place operand (inPlaceOperands): the slot of the value the
// operand's storage holds, when that value has a slot of the result's
// dtype, its last use (views included) is n, and no other operand of n
// reads it.
func inPlaceSlot(n *ir.Node, r, i int, last map[valueKey]int) (int, bool) {
	op, ok := inPlaceOperands[n.Target]
	if !ok || r != 0 || len(n.Types) != 1 || (n.Op != ir.CallFunction && n.Op != ir.CallMethod) || op >= len(n.Args()) {
		return -1, false
	}
	in, ok := n.Args()[op].(*ir.Node)
	if !ok {
		return -1, false
	}
	k := root(in)
	s := Slots(k.n)
	if k.i >= len(s) || s[k.i] < 0 || last[k] != i || k.n.Types[k.i].DType != n.Types[0].DType {
		return -1, false
	}
	for j, a := range n.Args() {
		if m, ok := a.(*ir.Node); ok && j != op && root(m) == k {
			return -1, false
		}
	}
	return s[k.i], true
}
