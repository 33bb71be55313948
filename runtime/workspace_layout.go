// This file holds WorkspaceLayout, which carves a compiled module's
// planned values out of its Workspace.

package runtime

import "fmt"

// WorkspaceLayout lays out the values of a compiled module's workspace
// from its memory plan, given as sharing rather than slot numbers: each
// value either starts a slot of its own (Own) or takes the slot of a value
// added before it, whose life has ended when it is written (Reuse). Bind
// then sizes each slot as its largest value, places the slots of each
// dtype one after another (each rounded by SlotSize), reserves the
// workspace and binds every value. Written this way, inserting a value in
// a model changes the layout's code only near the insertion.
//
// A layout is used once per workspace size: the generated reserve method
// builds one when the symbolic sizes change.
type WorkspaceLayout struct {
	values []layoutValue
	slots  []layoutSlot
}

type layoutValue struct {
	a     *Array
	shape []int
	slot  int
}

type layoutSlot struct {
	dtype DType
	size  int // elements of the largest value
	off   int
}

// Own adds a, of dtype dt and the given shape, in a slot of its own.
func (l *WorkspaceLayout) Own(a *Array, dt DType, shape ...int) {
	l.slots = append(l.slots, layoutSlot{dtype: dt})
	l.add(a, len(l.slots)-1, shape)
}

// Reuse adds a, of dtype dt and the given shape, in the slot of prev, a
// value added before. It panics if prev was not added or has another
// dtype.
func (l *WorkspaceLayout) Reuse(a, prev *Array, dt DType, shape ...int) {
	for i := len(l.values) - 1; i >= 0; i-- {
		if v := l.values[i]; v.a == prev {
			if l.slots[v.slot].dtype != dt {
				panic(fmt.Sprintf("runtime: WorkspaceLayout.Reuse: a %v value in the slot of a %v value", dt, l.slots[v.slot].dtype))
			}
			l.add(a, v.slot, shape)
			return
		}
	}
	panic("runtime: WorkspaceLayout.Reuse: the previous value was not added")
}

func (l *WorkspaceLayout) add(a *Array, slot int, shape []int) {
	s := &l.slots[slot]
	s.size = max(s.size, NumElements(shape))
	l.values = append(l.values, layoutValue{a: a, shape: shape, slot: slot})
}

// Bind reserves w for the slots and binds each value to its slot.
func (l *WorkspaceLayout) Bind(w *Workspace) {
	var total [3]int // by dtype: Float32, Int64, Bool
	for i := range l.slots {
		s := &l.slots[i]
		k := dtypeIndex(s.dtype)
		s.off = total[k]
		total[k] += SlotSize(s.size)
	}
	w.Reserve(total[0], total[1], total[2])
	for _, v := range l.values {
		s := l.slots[v.slot]
		w.Bind(v.a, s.dtype, s.off, v.shape...)
	}
}

func dtypeIndex(dt DType) int {
	switch dt {
	case Float32:
		return 0
	case Int64:
		return 1
	case Bool:
		return 2
	}
	panic("runtime: WorkspaceLayout: invalid dtype")
}
