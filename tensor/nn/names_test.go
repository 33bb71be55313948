package nn

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fxgen/fxgen/tensor"
)

func TestSnakeCase(t *testing.T) {
	for in, want := range map[string]string{
		"Fc1": "fc1", "TokEmb": "tok_emb", "QKV": "qkv", "HTTPServer": "http_server", "LnF": "ln_f", "Layer1": "layer1", "X": "x",
	} {
		if got := SnakeCase(in); got != want {
			t.Errorf("SnakeCase(%q) = %q, want %q", in, got, want)
		}
	}
}

type block struct {
	Conv   *Linear
	Scale  *tensor.Tensor `fx:"gamma"`
	Hidden *tensor.Tensor `fx:"-"`
	secret *tensor.Tensor
}

type net struct {
	Blocks []*block
	Head   Linear
	Any    any
}

func TestWalkNames(t *testing.T) {
	shared := tensor.Scalar(1)
	n := &net{
		Blocks: []*block{{Conv: NewLinear(2, 2), Scale: shared, Hidden: tensor.Scalar(2), secret: tensor.Scalar(3)}, {Conv: NewLinear(2, 2, Bias(false)), Scale: shared}},
		Head:   *NewLinear(2, 1),
		Any:    &block{Scale: tensor.Scalar(4)},
	}
	params, modules := Walk(n)
	var got []string
	for _, p := range params {
		got = append(got, p.Name+" "+p.GoPath)
	}
	want := []string{
		"blocks.0.conv.weight Blocks[0].Conv.Weight",
		"blocks.0.conv.bias Blocks[0].Conv.Bias",
		"blocks.0.gamma Blocks[0].Scale",
		"blocks.1.conv.weight Blocks[1].Conv.Weight",
		"head.weight Head.Weight",
		"head.bias Head.Bias",
		"any.gamma Any.(*github.com/fxgen/fxgen/tensor/nn.block).Scale",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Walk params (-want +got):\n%s", diff)
	}
	var mods []string
	for _, m := range modules {
		mods = append(mods, m.Name+":"+m.TypeName)
	}
	wantMods := []string{":net", "blocks.0:block", "blocks.0.conv:Linear", "blocks.1:block", "blocks.1.conv:Linear", "head:Linear", "any:block"}
	if diff := cmp.Diff(wantMods, mods); diff != "" {
		t.Errorf("Walk modules (-want +got):\n%s", diff)
	}
}

func TestWalkSequential(t *testing.T) {
	s := &struct{ Bot *Sequential }{NewSequential(NewLinear(3, 4), &ReLU{}, NewLinear(4, 2))}
	var got []string
	for _, p := range NamedParameters(s) {
		got = append(got, p.Name+" "+p.GoPath)
	}
	want := []string{
		"bot.0.weight Bot.Layers[0].(*github.com/fxgen/fxgen/tensor/nn.Linear).Weight",
		"bot.0.bias Bot.Layers[0].(*github.com/fxgen/fxgen/tensor/nn.Linear).Bias",
		"bot.2.weight Bot.Layers[2].(*github.com/fxgen/fxgen/tensor/nn.Linear).Weight",
		"bot.2.bias Bot.Layers[2].(*github.com/fxgen/fxgen/tensor/nn.Linear).Bias",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Sequential names (-want +got):\n%s", diff)
	}
}
