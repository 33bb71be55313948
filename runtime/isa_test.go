package runtime

import (
	"errors"
	"math"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// forEachISA runs f as a subtest for every kernel tier this CPU can run,
// with that tier selected.
func forEachISA(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	for _, isa := range ISAs() {
		t.Run(isa.String(), func(t *testing.T) {
			prev, err := SetISA(isa)
			if err != nil {
				t.Fatal(err)
			}
			defer SetISA(prev)
			f(t)
		})
	}
}

func TestParseISA(t *testing.T) {
	for _, isa := range []ISA{ISAGeneric, ISAAVX2, ISAAVX512} {
		got, err := ParseISA(strings.ToUpper(isa.String()))
		if err != nil || got != isa {
			t.Errorf("ParseISA(%q) = %v, %v; want %v", strings.ToUpper(isa.String()), got, err, isa)
		}
	}
	if _, err := ParseISA("sse2"); err == nil || !strings.Contains(err.Error(), "generic, avx2 or avx512") {
		t.Errorf("ParseISA(sse2) error = %v, want one listing the tiers", err)
	}
}

func TestSetISA(t *testing.T) {
	isas := ISAs()
	if isas[0] != ISAGeneric || isas[len(isas)-1] != CPUISA() {
		t.Fatalf("ISAs() = %v, want generic up to %v", isas, CPUISA())
	}
	start := CurrentISA()
	defer SetISA(start)
	for _, isa := range isas {
		if _, err := SetISA(isa); err != nil {
			t.Fatal(err)
		}
		if CurrentISA() != isa {
			t.Errorf("after SetISA(%v), CurrentISA() = %v", isa, CurrentISA())
		}
		if want := map[ISA]string{ISAGeneric: "go", ISAAVX2: "avx2", ISAAVX512: "avx512"}[isa]; !strings.HasPrefix(selectedKernel.name, want) {
			t.Errorf("tier %v selects the %s GEMM kernel", isa, selectedKernel.name)
		}
	}
	if CPUISA() < ISAAVX512 {
		if _, err := SetISA(ISAAVX512); err == nil {
			t.Errorf("SetISA(avx512) succeeded on a CPU whose best tier is %v", CPUISA())
		}
	}
}

// TestISAEnv runs this test binary with FXGEN_ISA set and checks the tier
// it starts with, and that a bad value stops it with a message naming the
// variable.
func TestISAEnv(t *testing.T) {
	if v := os.Getenv("FXGEN_ISA_TEST_CHILD"); v != "" {
		os.Stdout.WriteString("tier=" + CurrentISA().String() + "\n")
		return
	}
	run := func(value string) (string, error) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestISAEnv$")
		cmd.Env = append(os.Environ(), "FXGEN_ISA_TEST_CHILD=1", ISAEnv+"="+value)
		out, err := cmd.CombinedOutput()
		if errors.Is(err, syscall.ENOEXEC) {
			// Under an emulator (go test -exec qemu-aarch64-static) the
			// binary cannot start itself again.
			t.Skipf("cannot run the test binary again here: %v", err)
		}
		return string(out), err
	}
	for _, isa := range ISAs() {
		out, err := run(isa.String())
		if err != nil || !strings.Contains(out, "tier="+isa.String()+"\n") {
			t.Errorf("%s=%v: %v\n%s", ISAEnv, isa, err, out)
		}
	}
	out, err := run("avx512")
	if want := "tier=" + CPUISA().String() + "\n"; err != nil || !strings.Contains(out, want) {
		t.Errorf("%s=avx512 on a %v CPU: %v\n%s", ISAEnv, CPUISA(), err, out)
	}
	out, err = run("neon")
	if err == nil || !strings.Contains(out, "FXGEN_ISA=neon") {
		t.Errorf("%s=neon: want a failure naming the variable, got %v\n%s", ISAEnv, err, out)
	}
}

// skipWithoutVec skips a test of the vector kernels named by what on the
// generic tier and in portable builds, and fails it on a vector tier of an
// assembly build, where every kernel must have its vector form.
func skipWithoutVec(t *testing.T, what string) {
	t.Helper()
	if vectorKernels && CurrentISA() != ISAGeneric {
		t.Fatalf("no vector %s on the %v tier", what, CurrentISA())
	}
	t.Skipf("no vector %s in this build or on this tier", what)
}

// forEachISABench runs f as a sub-benchmark for every kernel tier this CPU
// can run, with that tier selected.
func forEachISABench(b *testing.B, f func(b *testing.B)) {
	b.Helper()
	for _, isa := range ISAs() {
		b.Run(isa.String(), func(b *testing.B) {
			prev, err := SetISA(isa)
			if err != nil {
				b.Fatal(err)
			}
			defer SetISA(prev)
			f(b)
		})
	}
}

// leastAllocs returns the least of three testing.AllocsPerRun(runs, f)
// counts: a collection during a count empties the pools (of tasks,
// scratch, workspaces) that the next call refills, and a worker parking
// on a channel right after one allocates the Go runtime's sudog; neither
// is the code under test's.
func leastAllocs(runs int, f func()) float64 {
	least := math.Inf(1)
	for range 3 {
		least = min(least, testing.AllocsPerRun(runs, f))
	}
	return least
}
