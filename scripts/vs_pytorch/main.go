// Command vs_pytorch times fxgen's compiled Forward of every zoo model
// against PyTorch 1.13 on the same inputs shapes, side by side in one run.
//
//	go run ./scripts/vs_pytorch [-passes 5] [-warm 1] [-models mlp,lstm] [-threads 1,2] [-gap 10ms] [-markdown] [-layers] [-v]
//
// With -layers it times convolution layers and depthwise-separable blocks
// (layers.go) instead: the runtime's kernels on the Go side, the same
// torch.nn layers on the PyTorch side, with GFLOP/s beside the times.
//
// A Python worker (torch_worker.py, Debian's python3-torch: apt-get install
// -y python3-torch) is started once and kept alive next to the compiled
// models in this process. For each pass and each cell (model, batch N,
// threads) both sides run the cell for -time and at least -calls calls,
// in an order that alternates between passes; the ratio PyTorch time /
// fxgen time (above 1: fxgen is faster) is taken per pass and the table
// shows medians, so that a machine whose speed drifts between quiet and
// busy spells still gives comparable figures. An untimed pass over every
// cell comes first (-warm), so that the first calls on either side stay
// out of the table (without it, fxgen's transformer at batch 1 took
// 6.3-7.2 ms in the first pass against 5.0-6.1 in the others, four runs). At 1 thread
// both sides of a pass run on the same CPU, the next CPU in turn each pass (-pin). PyTorch runs torch.jit.optimize_for_inference of a jit.trace with
// torch.set_num_threads and OpenBLAS's own thread count set to the cell's;
// fxgen runs with GOMAXPROCS and runtime.SetWorkers set to it. The kernel
// tier is the CPU's best unless FXGEN_ISA says otherwise (e.g.
// FXGEN_ISA=avx2); with -torch-isa match (the default), a forced AVX2 tier
// on an AVX-512 CPU caps PyTorch to AVX2 as well (oneDNN's
// ONEDNN_MAX_CPU_ISA=AVX2 and OpenBLAS's OPENBLAS_CORETYPE=Haswell), so
// that both sides run what an AVX2 server would; and fxgen's AVX-512 tier
// has OpenBLAS run its AVX-512 kernels (OPENBLAS_CORETYPE=SkylakeX), which
// Debian's OpenBLAS does not pick by itself on every such CPU (see
// torchAVX512Env); -torch-isa native leaves both to the environment. The
// worker runs with OMP_WAIT_POLICY=PASSIVE unless
// OMP_WAIT_POLICY or GOMP_SPINCOUNT is set (see startWorker).
//
// With -gap d both sides sleep d before each timed call and time the calls
// alone: a service's sporadic requests, which find the threads of either
// side parked and the caches cooled.
//
// Nothing in the build or the tests needs Python or this command.
package main

import (
	"flag"
	"fmt"
	"os"
	goruntime "runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fxgen/fxgen/internal/rounds"
	fxruntime "github.com/fxgen/fxgen/runtime"
)

// cell is one row of the table and its measurements.
type cell struct {
	model   *zooModel
	n       int
	threads int
	forward func()
	fx, pt  []float64 // ns per call, per pass
	torchOn string    // PyTorch's path, and the cores it kept busy
}

func main() {
	passes := flag.Int("passes", 5, "passes over all cells")
	warm := flag.Int("warm", 1, "untimed passes over all cells first, so that first-time costs on either side (a new heap's page faults, PyTorch's first calls) stay out of the table")
	models := flag.String("models", "", "comma-separated models (default: the whole zoo)")
	threadList := flag.String("threads", "1,2", "comma-separated thread counts")
	target := flag.Duration("time", 300*time.Millisecond, "time per side, cell and pass")
	minCalls := flag.Int("calls", 10, "fewest timed calls per side, cell and pass, however long they take")
	gap := flag.Duration("gap", 0, "idle time before each timed call, on both sides (0: calls back to back)")
	python := flag.String("python", "/usr/bin/python3", "Python with torch (Debian's python3-torch)")
	markdown := flag.Bool("markdown", false, "print the table as Markdown")
	layers := flag.Bool("layers", false, "time convolution layers and depthwise-separable blocks instead of the zoo's models")
	verbose := flag.Bool("v", false, "print each pass's times on standard error as they come")
	pin := flag.Bool("pin", true, "at 1 thread, run both sides on the same CPU, pass p on the p-th CPU this process may use (cyclically)")
	torchISA := flag.String("torch-isa", "match", "match: cap PyTorch to AVX2 when fxgen's tier is forced to AVX2 on an AVX-512 CPU, and have OpenBLAS run its AVX-512 kernels when fxgen runs its own; native: leave PyTorch as it detects the CPU")
	flag.Parse()

	var capEnv []string
	switch *torchISA {
	case "match":
		switch {
		case fxruntime.CurrentISA() == fxruntime.ISAAVX2 && fxruntime.CPUISA() > fxruntime.ISAAVX2:
			capEnv = torchAVX2Env
		case fxruntime.CurrentISA() == fxruntime.ISAAVX512:
			capEnv = torchAVX512Env
		}
	case "native":
	default:
		fmt.Fprintf(os.Stderr, "vs_pytorch: -torch-isa %q: want match or native\n", *torchISA)
		os.Exit(2)
	}
	w, err := startWorker(*python, capEnv)
	if err != nil {
		fmt.Fprintln(os.Stderr, "vs_pytorch:", err)
		os.Exit(1)
	}
	defer w.close()
	table := zoo
	if *layers {
		table = convLayers
	}
	cells, err := makeCells(table, *models, *threadList)
	if err != nil {
		fmt.Fprintln(os.Stderr, "vs_pytorch:", err)
		os.Exit(2)
	}
	info, err := w.info()
	if err != nil {
		fmt.Fprintln(os.Stderr, "vs_pytorch:", err)
		os.Exit(1)
	}
	var cpus []int
	if *pin {
		cpus = allowedCPUs()
	}
	printHeader(info, cpus)

	for pass := -*warm; pass < *passes; pass++ {
		for i, c := range cells {
			if !*verbose {
				if pass < 0 {
					fmt.Fprintf(os.Stderr, "\rwarming, cell %d/%d: %s N=%d %d thread(s)      ", i+1, len(cells), c.model.name, c.n, c.threads)
				} else {
					fmt.Fprintf(os.Stderr, "\rpass %d/%d, cell %d/%d: %s N=%d %d thread(s)      ", pass+1, *passes, i+1, len(cells), c.model.name, c.n, c.threads)
				}
			}
			var fx, pt float64
			cpu := -1 // any
			if c.threads == 1 && len(cpus) > 1 {
				cpu = cpus[(pass%len(cpus)+len(cpus))%len(cpus)]
			}
			timeTorch := func() {
				r, err := w.time(c.model.name, c.n, c.threads, cpu, *target, *minCalls, *gap)
				if err != nil {
					fmt.Fprintf(os.Stderr, "\nvs_pytorch: %s N=%d: %v\n", c.model.name, c.n, err)
					os.Exit(1)
				}
				pt = r.NS
				c.torchOn = fmt.Sprintf("%s, %.1f cores busy", r.Path, r.CPU)
			}
			timeGo := func() { fx = c.timeGo(cpu, *target, *minCalls, *gap) }
			if (pass+i)%2 == 0 {
				timeGo()
				timeTorch()
			} else {
				timeTorch()
				timeGo()
			}
			if pass < 0 {
				continue
			}
			c.fx, c.pt = append(c.fx, fx), append(c.pt, pt)
			if *verbose && pass >= 0 {
				on := "any CPU"
				if cpu >= 0 {
					on = fmt.Sprintf("CPU %d", cpu)
				}
				fmt.Fprintf(os.Stderr, "pass %d: %s N=%d, %d thread(s) on %s: fxgen %v, PyTorch %v, ratio %.2f\n", pass+1, c.model.name, c.n, c.threads, on, round(time.Duration(fx)), round(time.Duration(pt)), pt/fx)
			}
		}
	}
	fmt.Fprintln(os.Stderr)
	printTable(cells, *markdown)
}

// makeCells lists the cells: every chosen model of zoo at batch 1 and its
// large batch, for every thread count.
func makeCells(zoo []zooModel, models, threadList string) ([]*cell, error) {
	var threads []int
	for _, s := range strings.Split(threadList, ",") {
		t, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || t < 1 {
			return nil, fmt.Errorf("-threads: %q is not a thread count", s)
		}
		threads = append(threads, t)
	}
	var chosen []*zooModel
	for i := range zoo {
		if models == "" {
			chosen = append(chosen, &zoo[i])
		}
	}
	for _, name := range strings.Split(models, ",") {
		if models == "" {
			break
		}
		i := slices.IndexFunc(zoo, func(m zooModel) bool { return m.name == strings.TrimSpace(name) })
		if i < 0 {
			return nil, fmt.Errorf("-models: %q is not in the table", name)
		}
		chosen = append(chosen, &zoo[i])
	}
	var cells []*cell
	for _, m := range chosen {
		for _, n := range []int{1, m.large} {
			forward := m.build(n)
			for _, t := range threads {
				cells = append(cells, &cell{model: m, n: n, threads: t, forward: forward})
			}
		}
	}
	return cells, nil
}

// timeGo runs the compiled Forward for at least target and at least
// minCalls calls on the cell's thread count and returns the mean time per
// call in ns. The fewest calls keep a slow cell from being timed on its
// first calls after the other side ran, which find the caches cold
// (transformer at batch 8, AVX2 tier, 1 thread: 86.8 ms a call over 300 ms,
// about 3 calls, against 77.5 ms over 1 s). GOMAXPROCS is set
// to it too: Parallel's goroutines beyond GOMAXPROCS would not run at once,
// and at 1 thread the collector gets no second core that PyTorch lacks.
// The heap is collected first, so that a cell does not pay for the
// garbage of the cells before it (fxdoc at batch 1024, 1 thread, after
// ResNet-18's cells: 282 µs a call, 88 µs with the collection; the Python
// worker collects too).
// With cpu ≥ 0 the calls run on that CPU alone, as the Python worker's do
// for the same pass: the vCPUs of a VM can differ in speed (a 2-vCPU Zen 5
// VM: its GEMM micro-kernel 189 GFLOP/s on one, 206–210 on the other, and
// the transformer's Linears in sequence 143–154 against 179–189), so that
// two workers left to the scheduler could each land on either one.
func (c *cell) timeGo(cpu int, target time.Duration, minCalls int, gap time.Duration) float64 {
	if cpu >= 0 {
		unpin, err := pinToCPU(cpu)
		if err != nil {
			fmt.Fprintf(os.Stderr, "\nvs_pytorch: pinning to CPU %d: %v\n", cpu, err)
			os.Exit(1)
		}
		defer unpin()
	}
	goruntime.GOMAXPROCS(c.threads)
	fxruntime.SetWorkers(c.threads)
	goruntime.GC()
	c.forward() // warm: the worker count may have changed
	calls, start := 0, time.Now()
	var busy time.Duration // the calls' time, without the gaps
	for {
		if gap > 0 {
			time.Sleep(gap)
		}
		t0 := time.Now()
		c.forward()
		busy += time.Since(t0)
		calls++
		if calls >= minCalls && time.Since(start) >= target {
			break
		}
	}
	return float64(busy.Nanoseconds()) / float64(calls)
}

func printHeader(info map[string]any, cpus []int) {
	fmt.Printf("# CPU: %s\n", cpuModel())
	fmt.Printf("# fxgen kernel tier: %v (CPU's best: %v; FXGEN_ISA=%q); %s\n", fxruntime.CurrentISA(), fxruntime.CPUISA(), os.Getenv(fxruntime.ISAEnv), goruntime.Version())
	fmt.Printf("# PyTorch %v (Python %v), CPU capability %v, oneDNN available: %v; OpenMP: %v\n", info["torch"], info["python"], info["capability"], info["mkldnn"], info["omp_env"])
	fmt.Printf("# BLAS: BLAS_INFO=%v, loaded %v, OpenBLAS core %v; OPENBLAS_CORETYPE=%q\n", info["blas_info"], info["blas_lib"], info["openblas_core"], info["coretype_env"])
	fmt.Printf("# oneDNN ISA cap: ONEDNN_MAX_CPU_ISA=%q\n", info["onednn_isa_env"])
	if len(cpus) > 1 {
		fmt.Printf("# 1-thread cells: both sides pinned to the same CPU, pass p on CPU %v[p mod %d] (-pin)\n", cpus, len(cpus))
	}
	fmt.Println("# ratio = PyTorch time / fxgen time per pass (above 1: fxgen is faster); medians over passes, and the smallest and largest pass")
}

func printTable(cells []*cell, markdown bool) {
	if markdown {
		fmt.Println("| model | N | threads | fxgen | PyTorch | ratio | passes |")
		fmt.Println("|---|---|---|---|---|---|---|")
	} else {
		fmt.Printf("%-24s %5s %7s %22s %22s %6s %11s  %s\n", "model", "N", "threads", "fxgen", "PyTorch", "ratio", "passes", "PyTorch ran")
	}
	for _, c := range cells {
		fx, pt := time.Duration(rounds.Median(c.fx)), time.Duration(rounds.Median(c.pt))
		q := rounds.Ratios(c.pt, c.fx)
		ratio := rounds.Median(q)
		spread := fmt.Sprintf("%.2f–%.2f", slices.Min(q), slices.Max(q))
		fxs, pts := round(fx).String(), round(pt).String()
		if f := layerFLOPs(c.model.name, c.n); f > 0 {
			fxs += fmt.Sprintf(" (%.0f GFLOP/s)", f/float64(fx))
			pts += fmt.Sprintf(" (%.0f GFLOP/s)", f/float64(pt))
		}
		if markdown {
			fmt.Printf("| %s | %d | %d | %s | %s | %.2f | %s |\n", c.model.name, c.n, c.threads, fxs, pts, ratio, spread)
		} else {
			fmt.Printf("%-24s %5d %7d %22s %22s %6.2f %11s  %s\n", c.model.name, c.n, c.threads, fxs, pts, ratio, spread, c.torchOn)
		}
	}
}

// round keeps three significant digits of a duration.
func round(d time.Duration) time.Duration {
	for r := time.Duration(1); ; r *= 10 {
		if d < 1000*r {
			return d.Round(r)
		}
	}
}

// cpuModel returns the CPU's model name, family and model from
// /proc/cpuinfo, or "unknown".
func cpuModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown"
	}
	fields := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" {
			break // the first processor only
		}
		k, v, ok := strings.Cut(line, ":")
		if ok {
			fields[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return fmt.Sprintf("%s (%s family %s model %s)", fields["model name"], fields["vendor_id"], fields["cpu family"], fields["model"])
}
