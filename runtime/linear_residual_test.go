package runtime

import (
	"math"
	"math/rand/v2"
	"testing"
)

// refLinearResidual is the reference loop of LinearResidual in float64.
func refLinearResidual(x, w, bias, res *Array) []float64 {
	outF, in := w.Shape[0], w.Shape[1]
	rows := res.Len() / max(outF, 1)
	out := make([]float64, res.Len())
	for r := 0; r < rows; r++ {
		for j := 0; j < outF; j++ {
			s := float64(res.F32[r*outF+j])
			if bias != nil {
				s += float64(bias.F32[j])
			}
			for p := 0; p < in; p++ {
				s += float64(x.F32[r*in+p]) * float64(w.F32[j*in+p])
			}
			out[r*outF+j] = s
		}
	}
	return out
}

func TestLinearResidual(t *testing.T) { forEachISA(t, testLinearResidual) }

func testLinearResidual(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for _, rows := range []int{1, 3, 7, 37} {
		for _, in := range []int{0, 1, 5, 64} {
			for _, outF := range []int{1, 9, 33} {
				for _, withBias := range []bool{false, true} {
					for _, inPlace := range []bool{false, true} {
						x, w := randArray(r, rows, in), randArray(r, outF, in)
						res := randArray(r, rows, outF)
						res.F32[0] = float32(math.Inf(1))
						if len(res.F32) > 1 {
							res.F32[len(res.F32)-1] = float32(math.NaN())
						}
						var bias *Array
						if withBias {
							bias = randArray(r, outF)
						}
						want := refLinearResidual(x, w, bias, res)
						for _, packed := range []bool{false, true} {
							out := NewArray(Float32, rows, outF)
							rin := res
							if inPlace {
								Copy(out, res)
								rin = out
							}
							if packed {
								LinearResidualPacked(out, x, PackLinear(w), bias, rin)
							} else {
								LinearResidual(out, x, w, bias, rin)
							}
							for i, g := range out.F32 {
								wi := want[i]
								ok := math.IsNaN(wi) && math.IsNaN(float64(g)) || math.IsInf(wi, 1) && math.IsInf(float64(g), 1) ||
									math.Abs(float64(g)-wi) <= 1e-5*max(1, math.Abs(wi))*float64(max(in, 1))
								if !ok {
									t.Fatalf("rows %d in %d out %d bias %v in place %v packed %v: out[%d] = %v, want %v", rows, in, outF, withBias, inPlace, packed, i, g, wi)
								}
							}
						}
					}
				}
			}
		}
	}
}

func TestLinearResidualPanics(t *testing.T) {
	x, w := NewArray(Float32, 2, 3), NewArray(Float32, 4, 3)
	for name, f := range map[string]func(){
		"residual size": func() { LinearResidual(NewArray(Float32, 2, 4), x, w, nil, NewArray(Float32, 2, 3)) },
		"out size":      func() { LinearResidual(NewArray(Float32, 2, 3), x, w, nil, NewArray(Float32, 2, 3)) },
		"packed bias": func() {
			LinearResidualPacked(NewArray(Float32, 2, 4), x, PackLinear(w), NewArray(Float32, 3), NewArray(Float32, 2, 4))
		},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}
