package ir

import (
	"testing"

	"github.com/fxgen/fxgen/runtime"
)

// TestAttentionExtraFits checks which extra inputs attention takes, as
// runtime.Attention reads them, against scores [N, 4, 8, 8].
func TestAttentionExtraFits(t *testing.T) {
	scores := Shape{Sym("N"), Const(4), Const(8), Const(8)}
	for _, c := range []struct {
		extra Shape
		fits  bool
	}{
		{Shape{Sym("N"), Const(4), Const(8), Const(8)}, true},
		{Shape{Const(4), Const(8), Const(8)}, true},
		{Shape{Const(1), Const(4), Const(8), Const(8)}, true},
		{Shape{Const(8), Const(8)}, true},
		{Shape{Const(1), Const(1), Const(8), Const(8)}, true},
		{Shape{Const(1), Const(8)}, true},
		{Shape{Const(8)}, true},
		{Shape{Const(1)}, true},
		{Shape{}, true},
		{Shape{Sym("N"), Const(1), Const(8), Const(8)}, true}, // per sample, heads broadcast
		{Shape{Sym("N"), Const(1), Const(1), Const(8)}, true}, // a padding mask
		{Shape{Sym("N"), Const(4), Const(1), Const(8)}, true},
		{Shape{Const(1), Const(1), Const(1), Const(1), Const(8), Const(8)}, true},
		{Shape{Sym("N"), Const(1), Const(8), Const(1)}, false}, // keys broadcast
		{Shape{Const(2), Const(1), Const(1), Const(8)}, false},
		{Shape{Const(2), Const(1), Const(1), Const(1), Const(8)}, false},
		{Shape{Const(8), Const(1)}, false},
		{Shape{Const(2), Const(8), Const(8)}, false},
		{Shape{Const(7)}, false},
	} {
		if got := AttentionExtraFits(c.extra, scores); got != c.fits {
			t.Errorf("%v: %v, want %v", c.extra, got, c.fits)
		}
	}
}

// TestCheckProgram checks Op.CheckProgram: the ops with programs pass, and
// a program kernel whose program parameter or arity is wrong fails.
func TestCheckProgram(t *testing.T) {
	for _, name := range []string{OpFusedElementwise, OpAttention} {
		if err := LookupOp(name).CheckProgram(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	op := *LookupOp(OpFusedElementwise)
	for _, bad := range []any{runtime.FusedElementwise, func(*runtime.Array, []*runtime.Array, *runtime.ElementwiseProgram) {}} {
		op.Program = &Program{Kernel: bad, Inputs: func([]Arg) int { return 1 }}
		if err := op.CheckProgram(); err == nil {
			t.Errorf("program kernel %T: no error", bad)
		}
	}
}
