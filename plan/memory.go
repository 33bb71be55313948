// This file defines Memory, the workspace plan: slots by liveness.

package plan

import (
	"fmt"
	"slices"

	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/runtime"
)

// Memory is the workspace plan of a graph: the storage slot of each
// intermediate value of Forward, shared by values whose lifetimes do not
// overlap, and the values that are views of their input. It describes the
// graph it was made for; Verify checks that it still fits. The nil
// *Memory is the plan with no sharing: every value has storage of its own.
type Memory struct {
	slots map[*ir.Node][]int
	views map[*ir.Node]bool
	count int
}

// Value names one result of a node.
type Value struct {
	Node   *ir.Node
	Result int
}

// ResolveGetitem maps a getitem node to the result it selects, and any
// other node to its first result.
func ResolveGetitem(n *ir.Node) Value {
	if n.Target == ir.OpGetitem && (n.Op == ir.CallFunction || n.Op == ir.CallMethod) {
		if src, ok := n.Args()[0].(*ir.Node); ok {
			idx, _ := n.Kwarg("index")
			if i, ok := idx.(int); ok {
				return Value{src, i}
			}
		}
	}
	return Value{n, 0}
}

// NewMemory plans the workspace of g, given the nodes that depend on no
// input (ParamOnly of g). A value lives from the node that computes it to
// its last use (uses through getitem count as uses of the selected
// result). Values that need no workspace have slot -1: results of
// parameter-only nodes (computed once by the constructor), graph outputs
// (fresh arrays each call), getitem nodes (they name a result of another
// node), and views.
//
// A reshape, view, flatten or unsqueeze computed by Forward whose result
// is not a graph output is a view (IsView): it shares its input's storage
// under its own shape, and a use of it counts as a use of that input,
// which therefore keeps its slot until the view's last use. Kernels never
// write their inputs, so no view is written through while its source is
// needed.
//
// Slots are assigned greedily in node order: a node's results take free
// slots of their dtype (the best fit by size, else the largest) and the
// slots of values whose last use is that node are freed only after its
// results are placed, so that no kernel writes its output over one of its
// inputs. The exception are kernels made to: the result of a
// linear_residual takes its residual's slot when the residual dies there.
// The emitter sizes each slot at run time as the largest of its values
// for the actual symbolic sizes.
func NewMemory(g *ir.Graph, paramOnly map[*ir.Node]bool) (*Memory, error) {
	m := &Memory{slots: map[*ir.Node][]int{}, views: map[*ir.Node]bool{}}
	outputs := graphOutputs(g)
	for _, n := range g.Nodes() {
		if canAlias(n, paramOnly, outputs) {
			m.views[n] = true
		}
	}
	_, last := m.liveness(g)
	type slot struct {
		dtype ir.DType
		size  int // largest value at planSize
	}
	var slots []slot
	free := map[int]bool{}
	// dying[i] are the slots freed after node i.
	dying := map[int][]int{}
	for i, n := range g.Nodes() {
		var assigned []int
		planned := false
		for r, t := range n.Types {
			if !m.needsSlot(n, paramOnly, outputs, r) {
				assigned = append(assigned, -1)
				continue
			}
			planned = true
			size := elements(t)
			best := -1
			if s, ok := m.inPlaceSlot(n, r, i, last); ok {
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
			end := last[Value{n, r}]
			dying[end] = append(dying[end], best)
		}
		if planned {
			m.slots[n] = assigned
		}
		for _, s := range dying[i] {
			free[s] = true
		}
	}
	m.count = len(slots)
	if err := m.Verify(g, paramOnly); err != nil {
		return nil, err
	}
	return m, nil
}

// planSize is the value of every symbol when the planner compares sizes.
const planSize = 64

// liveness returns each node's position and, for each value, the position
// of its last use (its own position when unused). A use of a view is a
// use of the value whose storage it shares.
func (m *Memory) liveness(g *ir.Graph) (pos map[*ir.Node]int, last map[Value]int) {
	pos = map[*ir.Node]int{}
	last = map[Value]int{}
	for i, n := range g.Nodes() {
		pos[n] = i
		for r := range n.Types {
			last[Value{n, r}] = i
		}
		for _, in := range n.Inputs() {
			k := m.root(in)
			if len(in.Types) > 1 {
				// A node with several results used directly (a tuple
				// operand): every result is used.
				for r := range in.Types {
					last[Value{in, r}] = i
				}
				continue
			}
			last[k] = i
		}
	}
	return pos, last
}

// needsSlot reports whether result r of n needs a workspace slot.
func (m *Memory) needsSlot(n *ir.Node, paramOnly map[*ir.Node]bool, outputs map[Value]bool, r int) bool {
	switch n.Op {
	case ir.CallFunction, ir.CallMethod, ir.CallModule:
	default:
		return false
	}
	if paramOnly[n] || outputs[Value{n, r}] || m.IsView(n) {
		return false
	}
	return !(n.Target == ir.OpGetitem && n.Op != ir.CallModule)
}

// graphOutputs returns the values the output node returns.
func graphOutputs(g *ir.Graph) map[Value]bool {
	out := map[Value]bool{}
	if o := g.OutputNode(); o != nil {
		for _, in := range o.Inputs() {
			out[ResolveGetitem(in)] = true
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

// Slots returns the slots of n's results (-1 for a result that needs
// none), or nil when n has none planned.
func (m *Memory) Slots(n *ir.Node) []int {
	if m == nil {
		return nil
	}
	return m.slots[n]
}

// SlotCount returns the number of slots of the plan.
func (m *Memory) SlotCount() int {
	if m == nil {
		return 0
	}
	return m.count
}

// Verify checks the plan against g as it is now: each slot holds one
// dtype, no two values sharing a slot are live at once, no node writes a
// slot one of its inputs is in, and every view may still be one. A graph
// changed after planning fails here instead of computing a wrong answer.
// paramOnly is ParamOnly of g.
func (m *Memory) Verify(g *ir.Graph, paramOnly map[*ir.Node]bool) error {
	if m == nil {
		return nil
	}
	outputs := graphOutputs(g)
	for _, n := range g.Nodes() {
		if m.IsView(n) && !canAlias(n, paramOnly, outputs) {
			return fmt.Errorf("plan: node %s is planned as a view but cannot be one; plan again", n.Name)
		}
	}
	_, last := m.liveness(g)
	holder := map[int]Value{} // slot → value stored there last
	dtypes := map[int]ir.DType{}
	for i, n := range g.Nodes() {
		slots := m.Slots(n)
		if slots == nil {
			continue
		}
		if len(slots) != len(n.Types) {
			return fmt.Errorf("plan: node %s has %d slots for %d results; plan again", n.Name, len(slots), len(n.Types))
		}
		inputs := map[int]bool{}
		for _, in := range n.Inputs() {
			k := m.root(in)
			if s := m.Slots(k.Node); s != nil && k.Result < len(s) && s[k.Result] >= 0 {
				inputs[s[k.Result]] = true
			}
		}
		for r, s := range slots {
			if s < 0 {
				continue
			}
			if d, ok := dtypes[s]; ok && d != n.Types[r].DType {
				return fmt.Errorf("plan: slot %d holds %v and %v values", s, d, n.Types[r].DType)
			}
			dtypes[s] = n.Types[r].DType
			if inputs[s] {
				if is, ok := m.inPlaceSlot(n, r, i, last); !ok || is != s {
					return fmt.Errorf("plan: node %s writes slot %d, which holds one of its inputs", n.Name, s)
				}
			}
			if prev, ok := holder[s]; ok && last[prev] > i {
				return fmt.Errorf("plan: node %s overwrites slot %d while %s is still used (last at node %d)", n.Name, s, prev.Node.Name, last[prev])
			}
			holder[s] = Value{n, r}
		}
	}
	return nil
}

// Previous returns, for each planned result of g, the value that held its
// slot last before it (a value dead by then, whose storage it takes), or a
// zero Value when the result is the first in its slot. Unlike slot
// numbers, which a value inserted early in the graph renumbers for every
// later one, these relations change only near the insertion.
func (m *Memory) Previous(g *ir.Graph) map[Value]Value {
	out := map[Value]Value{}
	holder := map[int]Value{}
	for _, n := range g.Nodes() {
		for r, s := range m.Slots(n) {
			if s < 0 {
				continue
			}
			out[Value{n, r}] = holder[s]
			holder[s] = Value{n, r}
		}
	}
	return out
}

// WorkspaceBytes returns the bytes of workspace g's Forward needs with the
// symbols set to syms: with a plan, the sum of the slots (each as large as
// its largest value, rounded as the runtime rounds); without one (m nil),
// the sum of every intermediate value, each in its own array.
func (m *Memory) WorkspaceBytes(g *ir.Graph, syms map[string]int) int {
	outputs := graphOutputs(g)
	slotSize := map[int]int{}
	slotBytes := map[int]int{}
	total := 0
	for _, n := range g.Nodes() {
		slots := m.Slots(n)
		for r, t := range n.Types {
			dims, ok := t.Shape.Eval(syms)
			if !ok {
				continue
			}
			size, bytes := runtime.NumElements(dims), t.DType.Size()
			switch {
			case m != nil && slots != nil && slots[r] >= 0:
				s := slots[r]
				slotSize[s] = max(slotSize[s], runtime.SlotSize(size))
				slotBytes[s] = bytes
			case m == nil && m.needsSlot(n, nil, outputs, r):
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
func (m *Memory) inPlaceSlot(n *ir.Node, r, i int, last map[Value]int) (int, bool) {
	op, ok := inPlaceOperands[n.Target]
	if !ok || r != 0 || len(n.Types) != 1 || (n.Op != ir.CallFunction && n.Op != ir.CallMethod) || op >= len(n.Args()) {
		return -1, false
	}
	in, ok := n.Args()[op].(*ir.Node)
	if !ok {
		return -1, false
	}
	k := m.root(in)
	s := m.Slots(k.Node)
	if k.Result >= len(s) || s[k.Result] < 0 || last[k] != i || k.Node.Types[k.Result].DType != n.Types[0].DType {
		return -1, false
	}
	for j, a := range n.Args() {
		if o, ok := a.(*ir.Node); ok && j != op && m.root(o) == k {
			return -1, false
		}
	}
	return s[k.Result], true
}
