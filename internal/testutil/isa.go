// This file runs tests on every kernel tier.

package testutil

import (
	"testing"

	"github.com/fxgen/fxgen/runtime"
)

// ForEachISA runs f as a subtest for every kernel tier the CPU can run
// (runtime.ISAs), with that tier selected; subtests run one at a time.
func ForEachISA(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	for _, isa := range runtime.ISAs() {
		t.Run(isa.String(), func(t *testing.T) {
			prev, err := runtime.SetISA(isa)
			if err != nil {
				t.Fatal(err)
			}
			defer runtime.SetISA(prev)
			f(t)
		})
	}
}
