package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"time"
)

// worker is the Python process that times the PyTorch side.
type worker struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

// timing is the worker's answer to a time request.
type timing struct {
	NS    float64 `json:"ns"`
	Calls int     `json:"calls"`
	Path  string  `json:"path"`
	CPU   float64 `json:"cpu"`
	Error string  `json:"error"`
}

// torchAVX2Env caps PyTorch's kernels to AVX2: oneDNN's JIT kernels (both
// spellings of its variable) and OpenBLAS's core.
var torchAVX2Env = []string{"ONEDNN_MAX_CPU_ISA=AVX2", "DNNL_MAX_CPU_ISA=AVX2", "OPENBLAS_CORETYPE=Haswell"}

// torchAVX512Env is what PyTorch runs with when fxgen runs its AVX-512
// tier: OpenBLAS's AVX-512 kernels, whatever OPENBLAS_CORETYPE says. The
// OpenBLAS of Debian 12 (0.3.21) does not know every AVX-512 CPU and
// falls back to its AVX2 kernels on some: on an AMD EPYC Zen 5 (family
// 26) it runs Haswell's, whose Sgemm (1024³, 1 thread) gives 100 GFLOP/s
// against SkylakeX's 171.
var torchAVX512Env = []string{"OPENBLAS_CORETYPE=SkylakeX"}

// startWorker starts torch_worker.py (next to this file) with python and
// checks that it can import torch; env is added to its environment.
func startWorker(python string, env []string) (*worker, error) {
	_, self, _, _ := runtime.Caller(0)
	script := filepath.Join(filepath.Dir(self), "torch_worker.py")
	if out, err := exec.Command(python, "-c", "import torch").CombinedOutput(); err != nil {
		if out = bytes.TrimSpace(out); len(out) > 0 {
			err = fmt.Errorf("%v: %s", err, out)
		}
		return nil, fmt.Errorf("%s cannot import torch (%v); install Debian's PyTorch with `apt-get install -y python3-torch` (only this benchmark needs it; the build, the tests and CI never do)", python, err)
	}
	cmd := exec.Command(python, script)
	// PyTorch's OpenMP threads and OpenBLAS's own threads take turns on
	// the same cores: spinning OpenMP threads would steal OpenBLAS's (on 2
	// cores, 2-thread cells ran up to 8× slower than 1-thread ones). Passive
	// OpenMP threads cost a wake-up per parallel region instead, which
	// slows small convolutions (resnet20 at N=1 on 2 threads ran 3× slower
	// than with GOMP_SPINCOUNT=1000, which in turn slowed lstm at N=64 by
	// 1.3×); an OMP_WAIT_POLICY or GOMP_SPINCOUNT of the caller wins.
	cmd.Env = os.Environ()
	if os.Getenv("OMP_WAIT_POLICY") == "" && os.Getenv("GOMP_SPINCOUNT") == "" {
		cmd.Env = append(cmd.Env, "OMP_WAIT_POLICY=PASSIVE")
	}
	cmd.Env = append(cmd.Env, env...)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	return &worker{cmd: cmd, in: in, out: sc}, nil
}

// call sends one request and decodes the answer into v.
func (w *worker) call(req map[string]any, v any) error {
	line, err := json.Marshal(req)
	if err != nil {
		return err
	}
	if _, err := w.in.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("python worker: %v", err)
	}
	if !w.out.Scan() {
		if err := w.out.Err(); err != nil {
			return fmt.Errorf("python worker: %v", err)
		}
		return fmt.Errorf("python worker exited (its error output, if any, is above)")
	}
	return json.Unmarshal(w.out.Bytes(), v)
}

func (w *worker) info() (map[string]any, error) {
	var info map[string]any
	err := w.call(map[string]any{"op": "info"}, &info)
	return info, err
}

// time asks for the PyTorch time of one cell, over at least target and
// minCalls calls, each after gap idle, on the given CPU (-1: any).
func (w *worker) time(model string, n, threads, cpu int, target time.Duration, minCalls int, gap time.Duration) (timing, error) {
	var t timing
	err := w.call(map[string]any{"op": "time", "model": model, "n": n, "threads": threads, "cpu": cpu, "target_ms": target.Milliseconds(), "min_calls": minCalls, "gap_us": gap.Microseconds()}, &t)
	if err == nil && t.Error != "" {
		err = fmt.Errorf("python worker: %s", t.Error)
	}
	return t, err
}

func (w *worker) close() {
	w.in.Close()
	w.cmd.Wait()
}
