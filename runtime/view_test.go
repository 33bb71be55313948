package runtime

import "testing"

func TestViewShares(t *testing.T) {
	x := NewArray(Float32, 2, 3)
	for i := range x.F32 {
		x.F32[i] = float32(i)
	}
	var v Array
	View(&v, x, 3, 1, 2)
	if v.DType != Float32 || len(v.Shape) != 3 || v.Shape[0] != 3 || v.Shape[2] != 2 || v.Len() != 6 {
		t.Fatalf("view: dtype %v shape %v len %d", v.DType, v.Shape, v.Len())
	}
	x.F32[4] = 40
	if v.F32[4] != 40 {
		t.Errorf("the view does not share x's elements: %v", v.F32)
	}
	if len(x.Shape) != 2 || x.Shape[0] != 2 {
		t.Errorf("View changed x's shape to %v", x.Shape)
	}
	y := NewArray(Int64, 4)
	View(&v, y, 2, 2)
	if v.DType != Int64 || v.F32 != nil || len(v.I64) != 4 {
		t.Errorf("view of an i64 array: dtype %v, F32 %v, I64 %v", v.DType, v.F32, v.I64)
	}
	if n := testing.AllocsPerRun(10, func() { View(&v, x, 6) }); n != 0 {
		t.Errorf("View allocates %v times per call, want 0", n)
	}
	defer func() {
		if recover() == nil {
			t.Errorf("View to a shape of another size did not panic")
		}
	}()
	View(&v, x, 4)
}
