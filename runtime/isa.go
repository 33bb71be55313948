// This file defines the kernel tiers (ISA) and the switch that forces a
// lower one.

package runtime

import (
	"fmt"
	"os"
	"strings"
)

// An ISA is a tier of kernels: the instruction set the assembly kernels
// are written for. Every kernel has a Generic (portable Go) form; on amd64
// most also have AVX2+FMA and AVX-512 forms.
type ISA int

// The kernel tiers, lowest first.
const (
	ISAGeneric ISA = iota // portable Go, on every CPU and with -tags noasm
	ISAAVX2               // AVX2 and FMA (Haswell and later, AMD Zen)
	ISAAVX512             // AVX-512F (Skylake-SP and later, AMD Zen 4)
)

// ISAEnv is the environment variable read at start-up that forces a lower
// tier than the CPU's best: "generic", "avx2" or "avx512". A tier above
// what the CPU can run is capped at the CPU's best.
const ISAEnv = "FXGEN_ISA"

var isaNames = [...]string{ISAGeneric: "generic", ISAAVX2: "avx2", ISAAVX512: "avx512"}

// String returns the tier's name as FXGEN_ISA spells it.
func (i ISA) String() string {
	if i >= 0 && int(i) < len(isaNames) {
		return isaNames[i]
	}
	return fmt.Sprintf("ISA(%d)", int(i))
}

// ParseISA returns the tier named s ("generic", "avx2" or "avx512", in any
// case).
func ParseISA(s string) (ISA, error) {
	for i, name := range isaNames {
		if strings.EqualFold(s, name) {
			return ISA(i), nil
		}
	}
	return 0, fmt.Errorf("runtime: unknown kernel tier %q (want generic, avx2 or avx512)", s)
}

// currentISA is the tier the kernels run; SetISA changes it.
var currentISA ISA

func init() {
	isa := cpuISA
	if s := os.Getenv(ISAEnv); s != "" {
		want, err := ParseISA(s)
		if err != nil {
			panic(fmt.Sprintf("%s=%s: %v", ISAEnv, s, err))
		}
		isa = min(want, cpuISA)
	}
	currentISA = isa
	applyISA(isa)
}

// CPUISA returns the best tier this CPU and build can run: ISAGeneric on
// other architectures and with -tags noasm.
func CPUISA() ISA { return cpuISA }

// CurrentISA returns the tier the kernels run now.
func CurrentISA() ISA { return currentISA }

// ISAs returns every tier this CPU and build can run, lowest first; tests
// run each of them.
func ISAs() []ISA {
	var out []ISA
	for i := ISAGeneric; i <= cpuISA; i++ {
		out = append(out, i)
	}
	return out
}

// SetISA makes the kernels run tier isa and returns the tier they ran
// before; it fails, changing nothing, when the CPU cannot run isa. It is
// meant for tests and benchmarks: it must not run while any kernel runs.
// Weights packed for a GEMM (PackB, compiled models' constructors) keep
// the micro-kernel of the tier they were packed under.
func SetISA(isa ISA) (prev ISA, err error) {
	prev = currentISA
	if isa < ISAGeneric || isa > cpuISA {
		return prev, fmt.Errorf("runtime: this CPU cannot run the %v kernels (its best tier is %v)", isa, cpuISA)
	}
	currentISA = isa
	applyISA(isa)
	return prev, nil
}
