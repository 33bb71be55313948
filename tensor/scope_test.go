package tensor

import (
	"testing"

	"github.com/fxgen/fxgen/ir"
)

// fakeHook counts what reaches it and holds one tensor.
type fakeHook struct {
	held    *Tensor
	records int
}

func (h *fakeHook) Record(ir.Opcode, string, []any, []ir.Kwarg) []*Tensor {
	h.records++
	return []*Tensor{FromFloat32([]float32{0})}
}

func (h *fakeHook) CallModule(_ any, _ string, _ []ir.Kwarg, fwd func([]*Tensor) []*Tensor, args []*Tensor) []*Tensor {
	return fwd(args)
}

func (h *fakeHook) Concretize(*Tensor, string) { panic("concretize") }

func (h *fakeHook) Held(t *Tensor) bool { return t == h.held }

func (h *fakeHook) Captures(*Tensor) bool { return false }

// TestBeginTraceScopes: a scope covers its own goroutine only, nests, and
// ends cleanly; ops on held tensors and constructors go to the innermost
// scope of the goroutine.
func TestBeginTraceScopes(t *testing.T) {
	p := FromFloat32([]float32{1, 2}, 2)
	outer, inner := &fakeHook{held: p}, &fakeHook{held: p}
	endOuter := BeginTrace(outer)
	Zeros(2)
	p.Relu()
	if outer.records != 2 {
		t.Errorf("outer scope recorded %d ops, want 2", outer.records)
	}
	done := make(chan *Tensor)
	go func() {
		r := p.Relu().Add(Zeros(2))
		if r.Symbolic() != nil || r.Float32s()[1] != 2 {
			t.Errorf("another goroutine's work is %v", r)
		}
		done <- r
	}()
	if r := <-done; outer.records != 2 || !r.FromParams() {
		t.Errorf("another goroutine's work reached the scope (records %d), or is not marked as computed from a held tensor", outer.records)
	}
	endInner := BeginTrace(inner)
	Ones(2)
	endInner()
	Ones(2)
	if inner.records != 1 || outer.records != 3 {
		t.Errorf("nested scopes: inner %d, outer %d records, want 1 and 3", inner.records, outer.records)
	}
	func() {
		defer func() {
			if recover() != "concretize" {
				t.Error("reading a held tensor in its scope did not concretize")
			}
		}()
		p.Item()
	}()
	endOuter()
	if len(openScopes()) != 0 {
		t.Errorf("scopes left open: %v", openScopes())
	}
	if z := Zeros(2); z.Symbolic() != nil || p.Float32s()[0] != 1 || outer.records != 3 {
		t.Error("work after the scope ended reached it")
	}
}
