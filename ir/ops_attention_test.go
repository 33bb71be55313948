package ir

import "testing"

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
		{Shape{Sym("N"), Const(1), Const(8), Const(8)}, false}, // per sample, heads broadcast
		{Shape{Const(8), Const(1)}, false},
		{Shape{Const(2), Const(8), Const(8)}, false},
		{Shape{Const(7)}, false},
	} {
		if got := AttentionExtraFits(c.extra, scores); got != c.fits {
			t.Errorf("%v: %v, want %v", c.extra, got, c.fits)
		}
	}
}
