package main

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

func TestTestSource(t *testing.T) {
	m := &model{
		Pkg:      &packages.Package{Name: "zoo"},
		Local:    "MakeNet(nn.Eps(1e-5))",
		Pointer:  false,
		Imports:  map[string]string{"nn": "github.com/fxgen/fxgen/tensor/nn"},
		Inputs:   []string{"x=f32[N,4]", "ids=i64[N]"},
		Concrete: []driverArg{{Name: "mode", Expr: "fxgenmodel.Mode(2)"}},
		Args:     []forwardArg{{Name: "x"}, {Name: "mode", Local: "Mode(2)"}, {Name: "ids"}},
		Results:  2,
	}
	o := &options{Type: "Net", Inputs: []inputSpec{{"x", "x=f32[N,4]"}, {"ids", "ids=i64[N]"}}, Concrete: []concreteArg{{"mode", "2"}}}
	src, err := testSource(m, o, "/p/zoo/net_fx.go")
	if err != nil {
		t.Fatal(err)
	}
	want := header + `
// fxgen -type Net -input "x=f32[N,4]" -input "ids=i64[N]" -concrete mode=2

package zoo

import (
	"testing"

	"github.com/fxgen/fxgen/fxgentest"
	"github.com/fxgen/fxgen/tensor"
	"github.com/fxgen/fxgen/tensor/nn"
)

// TestNetCompiledMatchesEager checks net_fx.go against Net on random inputs:
// it fails when Net.Forward changed and go generate was not run again.
func TestNetCompiledMatchesEager(t *testing.T) {
	m := MakeNet(nn.Eps(1e-5))
	c := NewNetCompiled(&m)
	eager := func(x *tensor.Tensor, ids *tensor.Tensor) (*tensor.Tensor, *tensor.Tensor) {
		return m.Forward(x, Mode(2), ids)
	}
	compiled := func(x *tensor.Tensor, ids *tensor.Tensor) (*tensor.Tensor, *tensor.Tensor) {
		return c.Forward(x, Mode(2), ids)
	}
	fxgentest.MatchesEager(t, "x=f32[N,4] ids=i64[N]", eager, compiled)
}
`
	if string(src) != want {
		t.Errorf("test source:\n%s\nwant:\n%s", src, want)
	}
	if got := testPath("/p/zoo/net_fx.go"); got != "/p/zoo/net_fx_test.go" {
		t.Errorf("testPath = %s", got)
	}
	m.Imports["testing"] = "example.com/testing"
	if _, err := testSource(m, o, "/p/zoo/net_fx.go"); err == nil || !strings.Contains(err.Error(), "-test=false") {
		t.Errorf("an import named testing: got %v, want an error suggesting -test=false", err)
	}
}
