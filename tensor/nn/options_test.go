package nn_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fxgen/fxgen/internal/testutil"
	"github.com/fxgen/fxgen/ir"
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
	"github.com/fxgen/fxgen/tracer"
)

// mustPanic returns the message of fn's panic, failing t when it returns.
func mustPanic(t *testing.T, fn func()) (msg string) {
	t.Helper()
	defer func() { msg = fmt.Sprint(recover()) }()
	fn()
	t.Fatal("no panic")
	return ""
}

func TestOptionsDefaultsAndOverrides(t *testing.T) {
	c := nn.NewConv2d(8, 16, 3)
	if c.Stride != 1 || c.Padding != 0 || c.Groups != 1 || c.Bias == nil {
		t.Errorf("NewConv2d(8, 16, 3): stride %d padding %d groups %d bias %v, want PyTorch's defaults 1 0 1 and a bias", c.Stride, c.Padding, c.Groups, c.Bias != nil)
	}
	c = nn.NewConv2d(8, 16, 3, nn.Stride(2), nn.Padding(1), nn.Groups(4), nn.Bias(false))
	if c.Stride != 2 || c.Padding != 1 || c.Groups != 4 || c.Bias != nil {
		t.Errorf("NewConv2d with options: stride %d padding %d groups %d bias %v", c.Stride, c.Padding, c.Groups, c.Bias != nil)
	}
	if got, want := paramNames(c), "weightf32[16,2,3,3]"; got != want {
		t.Errorf("grouped conv params: got %q, want %q", got, want)
	}
	if l := nn.NewLinear(4, 3, nn.Bias(false)); l.Bias != nil {
		t.Error("NewLinear(4, 3, Bias(false)) has a bias")
	}
	if l := nn.NewLinear(4, 3); l.Bias == nil {
		t.Error("NewLinear(4, 3) has no bias")
	}
	if ln := nn.NewLayerNorm(6, nn.Eps(1e-6)); ln.Eps != 1e-6 || len(ln.NormalizedShape) != 1 || ln.NormalizedShape[0] != 6 {
		t.Errorf("NewLayerNorm(6, Eps(1e-6)): eps %v shape %v", ln.Eps, ln.NormalizedShape)
	}
	if ln := nn.NewLayerNormShape([]int{3, 4}); ln.Eps != 1e-5 || paramNames(ln) != "weightf32[3,4] biasf32[3,4]" {
		t.Errorf("NewLayerNormShape([3 4]): eps %v params %q", ln.Eps, paramNames(ln))
	}
	if bn := nn.NewBatchNorm2d(4, nn.Eps(1e-3)); bn.Eps != 1e-3 {
		t.Errorf("NewBatchNorm2d(4, Eps(1e-3)).Eps = %v", bn.Eps)
	}
}

func TestOptionsMisuse(t *testing.T) {
	for _, c := range []struct {
		fn   func()
		want string
	}{
		{func() { nn.NewLayerNorm(4, nn.Stride(2)) }, "nn.NewLayerNorm: option Stride does not apply (it takes Eps)"},
		{func() { nn.NewLinear(4, 4, nn.Eps(1)) }, "nn.NewLinear: option Eps does not apply (it takes Bias)"},
		{func() { nn.NewConv2d(6, 8, 3, nn.Groups(4)) }, "4 groups do not divide"},
		{func() { nn.NewConv2d(4, 8, 3, nn.Stride(0)) }, "want stride ≥ 1"},
		{func() { nn.NewConv2d(4, 8, 3, nn.Option{}) }, "a zero Option"},
		{func() { nn.NewLayerNormShape(nil) }, "empty normalized shape"},
	} {
		if got := mustPanic(t, c.fn); !strings.Contains(got, c.want) {
			t.Errorf("panic %q, want it to contain %q", got, c.want)
		}
	}
}

// TestGroupedConvForward checks a grouped convolution made with options
// against a reference loop.
func TestGroupedConvForward(t *testing.T) {
	const n, in, out, groups, h, k = 2, 6, 4, 2, 5, 3
	c := nn.NewConv2d(in, out, k, nn.Padding(1), nn.Groups(groups))
	x := testutil.RandFloat32(7, n, in, h, h)
	got := c.Forward(x).Float32s()
	xs, ws, bs := x.Float32s(), c.Weight.Float32s(), c.Bias.Float32s()
	cin, cout := in/groups, out/groups
	for b := 0; b < n; b++ {
		for o := 0; o < out; o++ {
			g := o / cout
			for i := 0; i < h; i++ {
				for j := 0; j < h; j++ {
					want := bs[o]
					for ci := 0; ci < cin; ci++ {
						for di := 0; di < k; di++ {
							for dj := 0; dj < k; dj++ {
								y, xx := i+di-1, j+dj-1
								if y < 0 || y >= h || xx < 0 || xx >= h {
									continue
								}
								want += ws[((o*cin+ci)*k+di)*k+dj] * xs[((b*in+g*cin+ci)*h+y)*h+xx]
							}
						}
					}
					if v := got[((b*out+o)*h+i)*h+j]; abs32(v-want) > 1e-4 {
						t.Fatalf("out[%d,%d,%d,%d] = %v, want %v", b, o, i, j, v, want)
					}
				}
			}
		}
	}
}

func abs32(v float32) float32 {
	if v < 0 {
		return -v
	}
	return v
}

// listNet holds its blocks in a ModuleList.
type listNet struct {
	Blocks nn.ModuleList
	Head   *nn.Linear
}

func (m *listNet) Forward(x *tensor.Tensor) *tensor.Tensor {
	for _, b := range m.Blocks {
		x = b.Forward(x)
	}
	return m.Head.Forward(x)
}

func TestModuleListNames(t *testing.T) {
	m := &listNet{Blocks: nn.NewModuleList(nn.NewLinear(4, 4), &nn.ReLU{}, nn.NewLinear(4, 4, nn.Bias(false))), Head: nn.NewLinear(4, 2)}
	want := "blocks.0.weightf32[4,4] blocks.0.biasf32[4] blocks.2.weightf32[4,4] head.weightf32[2,4] head.biasf32[2]"
	if got := paramNames(m); got != want {
		t.Errorf("params: got %q, want %q", got, want)
	}
	g, err := tracer.Trace(m, tracer.MustParseInputs("x=f32[N,4]"))
	if err != nil {
		t.Fatal(err)
	}
	var targets []string
	for _, n := range g.Nodes() {
		if n.Op == ir.CallModule {
			targets = append(targets, n.Target)
		}
	}
	if got, want := strings.Join(targets, " "), "blocks.0 blocks.1 blocks.2 head"; got != want {
		t.Errorf("call_module targets: got %q, want %q", got, want)
	}
	x := testutil.RandFloat32(8, 3, 4)
	outs, err := ir.NewInterpreter(g).Run(x.Array())
	if err != nil {
		t.Fatal(err)
	}
	if err := testutil.Close(tensor.FromArray(outs[0]), m.Forward(x), 1e-6); err != nil {
		t.Errorf("interpreter vs eager: %v", err)
	}
}

// ExampleNewConv2d shows PyTorch's optional arguments as options.
func ExampleNewConv2d() {
	down := nn.NewConv2d(64, 128, 3, nn.Stride(2), nn.Padding(1), nn.Bias(false))
	depthwise := nn.NewConv2d(32, 32, 3, nn.Padding(1), nn.Groups(32))
	fmt.Println(down.Weight.Shape(), down.Bias == nil)
	fmt.Println(depthwise.Weight.Shape(), depthwise.Groups)
	// Output:
	// [128 64 3 3] true
	// [32 1 3 3] 32
}
