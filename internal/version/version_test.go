package version

import (
	"runtime/debug"
	"testing"
)

func TestReleased(t *testing.T) {
	for v, want := range map[string]string{
		"v1.2.3":                               "v1.2.3",
		"v0.4.0-rc.1":                          "v0.4.0-rc.1",
		"(devel)":                              Fallback,
		"":                                     Fallback,
		"v0.0.0-20261125063608-aab50e6f1234":   Fallback,
		"v1.2.4-0.20261125063608-aab50e6f1234": Fallback,
		"v1.2.3+dirty":                         Fallback,
		"v0.1.1-0.20261125063608-aab50e6f1234+dirty": Fallback,
	} {
		if got := Released(v); got != want {
			t.Errorf("Released(%q) = %q, want %q", v, got, want)
		}
	}
}

func TestFromBuildInfo(t *testing.T) {
	fx := func(v string, replaced bool) *debug.Module {
		m := &debug.Module{Path: Module, Version: v}
		if replaced {
			m.Replace = &debug.Module{Path: "../fxgen", Version: "(devel)"}
		}
		return m
	}
	for _, tc := range []struct {
		name string
		bi   debug.BuildInfo
		want string
	}{
		{"this repository", debug.BuildInfo{Main: *fx("(devel)", false)}, Fallback},
		{"go install at a release", debug.BuildInfo{Main: *fx("v1.2.3", false)}, "v1.2.3"},
		{"go tool in a user's module", debug.BuildInfo{Main: debug.Module{Path: "example.com/m"}, Deps: []*debug.Module{{Path: "x.org/y", Version: "v9.9.9"}, fx("v1.4.0", false)}}, "v1.4.0"},
		{"a replace to a checkout", debug.BuildInfo{Main: debug.Module{Path: "example.com/m"}, Deps: []*debug.Module{fx("v0.0.0", true)}}, Fallback},
		{"no fxgen module", debug.BuildInfo{Main: debug.Module{Path: "example.com/m"}}, Fallback},
	} {
		if got := fromBuildInfo(&tc.bi); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
