package emit

import (
	"fmt"
	"testing"

	"github.com/dave/jennifer/jen"
)

func TestSelector(t *testing.T) {
	for path, want := range map[string]string{
		"Fc1.Weight":          "m.Fc1.Weight",
		"Blocks[3].Conv.Bias": "m.Blocks[3].Conv.Bias",
		"Bot.Layers[0].(*github.com/fxgen/fxgen/tensor/nn.Linear).Weight": "m.Bot.Layers[0].(*nn.Linear).Weight",
		"Any.(example.com/m.T).X": "m.Any.(m.T).X",
		`Heads["a.b]"].Weight`:    `m.Heads["a.b]"].Weight`,
		"Out.(receiver *github.com/fxgen/fxgen/tensor/nn.Linear).Weight": "tensor.MethodReceiver[*nn.Linear](m.Out).Weight",
	} {
		s, err := selector(jen.Id("m"), path)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if got := fmt.Sprintf("%#v", s); got != want {
			t.Errorf("selector(%q) = %q, want %q", path, got, want)
		}
	}
	for _, bad := range []string{"A.(nopkg)", "A[x]", "A.(*p.T", `A["x`, `A["x"`, "A.(receiver *T)", "A.(receiver *p.T"} {
		if _, err := selector(jen.Id("m"), bad); err == nil {
			t.Errorf("selector(%q) gave no error", bad)
		}
	}
}
