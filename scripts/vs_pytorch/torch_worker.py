#!/usr/bin/python3
"""PyTorch side of scripts/vs_pytorch: a worker kept alive by the Go
coordinator. It reads one JSON request a line on stdin and answers one JSON
line on stdout:

    {"op": "info"}                                  -> versions, BLAS library and core
    {"op": "time", "model": "mlp", "n": 256, "threads": 1, "cpu": 0, "target_ms": 300, "min_calls": 10}
                                                    -> {"ns": ..., "calls": ..., "path": ...}

With "cpu" 0 or more, the timed calls run on that CPU alone (the calling
thread's affinity, which is where 1-thread PyTorch and OpenBLAS compute).

A model is a name of the zoo or a layer cell of layers.go
(conv:C/H/O/K/S/P or dwsep:C/H/E/O/S).

Each (model, n) is built once and kept: the zoo's model of
scripts/torch_reference.py in eval mode, its default initialisation, random
inputs of the Go side's shapes, compiled with
torch.jit.optimize_for_inference(torch.jit.trace(...)) (PyTorch's best CPU
path; the plain trace, then eager, if that fails).
"""

import ctypes
import gc
import json
import os
import re
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch_reference as ref  # noqa: E402

cache = {}


def loaded_blas():
    """The BLAS libraries mapped into this process once torch has run a
    matrix product (Debian's torch links the libblas.so.3 alternative)."""
    torch.zeros(2, 2) @ torch.zeros(2, 2)
    with open("/proc/self/maps") as f:
        return sorted({line.split()[-1] for line in f
                       if "blas" in line.rsplit("/", 1)[-1] and line.split()[-1].startswith("/")})


def load_openblas(paths):
    """The OpenBLAS library torch runs on, else libopenblas.so.0 (which
    torch then does not use), or None; and whether torch uses it."""
    for path in [p for p in paths if "openblas" in p] + ["libopenblas.so.0"]:
        try:
            lib = ctypes.CDLL(path)
            lib.openblas_get_corename.restype = ctypes.c_char_p
            return lib, path in paths
        except (OSError, AttributeError):
            continue
    return None, False


# OpenBLAS keeps its own thread pool (OPENBLAS_NUM_THREADS, default all
# cores), which torch.set_num_threads does not change: each cell sets both.
blas_libs = loaded_blas()
openblas, torch_uses_openblas = load_openblas(blas_libs)


def layer(name, n):
    """A layer cell of -layers (see layers.go): conv:C/H/O/K/S/P or
    dwsep:C/H/E/O/S, and its input at batch n."""
    kind, spec = name.split(":")
    v = [int(f) for f in spec.split("/")]
    torch.manual_seed(1)
    if kind == "conv":
        c, h, o, k, s, p = v
        model = torch.nn.Conv2d(c, o, k, stride=s, padding=p)
    else:
        c, h, e, o, s = v
        model = torch.nn.Sequential(
            torch.nn.Conv2d(c, e, 1), torch.nn.ReLU(),
            torch.nn.Conv2d(e, e, 3, stride=s, padding=1, groups=e), torch.nn.ReLU(),
            torch.nn.Conv2d(e, o, 1))
    x = torch.rand(n, c, h, h, generator=torch.Generator().manual_seed(2)) * 2 - 1
    return model.eval(), (x,)


def build(name, n):
    key = (name, n)
    if key in cache:
        return cache[key]
    if ":" in name:
        model, args = layer(name, n)
    else:
        ctor, in_names, _, _ = ref.MODELS[name]
        torch.manual_seed(1)
        model = ctor().eval()
        ref.N = n
        inputs = ref.inputs_for(name, torch.Generator().manual_seed(2))
        if name == "resnet18":  # inputs_for holds it at batch 1 for the parity test
            inputs = {"x": torch.rand(n, 3, 224, 224, generator=torch.Generator().manual_seed(2)) * 2 - 1}
        args = tuple(inputs[k] for k in in_names)
    path = "optimize_for_inference(jit.trace)"
    with torch.no_grad():
        try:
            fn = torch.jit.optimize_for_inference(torch.jit.trace(model, args))
            for _ in range(3):  # the profiling executor specialises on the first runs
                fn(*args)
        except Exception:  # noqa: BLE001 - any failure falls back
            try:
                path = "jit.trace"
                fn = torch.jit.trace(model, args)
                for _ in range(3):
                    fn(*args)
            except Exception:  # noqa: BLE001
                path = "eager"
                fn = model
    cache[key] = (fn, args, path)
    return cache[key]


def time_cell(req):
    torch.set_num_threads(req["threads"])
    if torch_uses_openblas:
        openblas.openblas_set_num_threads(req["threads"])
    fn, args, path = build(req["model"], req["n"])
    target = req["target_ms"] / 1000.0
    min_calls = req.get("min_calls", 1)
    gap = req.get("gap_us", 0) / 1e6
    gc.collect()  # as the Go side collects before each cell
    cpu_req = req.get("cpu", -1)
    allowed = os.sched_getaffinity(0)
    if cpu_req >= 0:
        os.sched_setaffinity(0, {cpu_req})
    try:
        return timed_calls(fn, args, path, target, min_calls, gap)
    finally:
        if cpu_req >= 0:
            os.sched_setaffinity(0, allowed)


def timed_calls(fn, args, path, target, min_calls, gap):
    """Times calls of fn(*args) for at least target seconds and min_calls
    calls, each after gap seconds idle."""
    with torch.no_grad():
        fn(*args)  # warm: the thread count may have changed
        settle()
        calls, start, cpu = 0, time.perf_counter(), time.process_time()
        busy = 0.0  # the calls' time, without the gaps
        while True:
            if gap > 0:
                time.sleep(gap)
            t0 = time.perf_counter()
            fn(*args)
            busy += time.perf_counter() - t0
            calls += 1
            elapsed = time.perf_counter() - start
            if calls >= min_calls and elapsed >= target:
                break
        cpu = time.process_time() - cpu
    # cpu: the cores kept busy on average over the calls' time (at most
    # threads if they hold; with a gap, threads that spin through it count
    # too, so it can be more).
    settle()
    return {"ns": busy * 1e9 / calls, "calls": calls, "path": path, "cpu": cpu / busy}


def settle():
    """Waits (up to 1 s) until this process stops using CPU: OpenBLAS's
    idle threads poll for about 2^28 cycles (0.1 s) after a multi-threaded
    call, and would take a core from a 1-thread cell or from the fxgen side
    timed next."""
    deadline = time.perf_counter() + 1
    while time.perf_counter() < deadline:
        cpu = time.process_time()
        time.sleep(0.01)
        if time.process_time() - cpu < 0.001:
            return


def openblas_core():
    try:
        core = openblas.openblas_get_corename().decode()
    except Exception:  # noqa: BLE001 - no OpenBLAS, or no such symbol
        return "unknown"
    return core if torch_uses_openblas else core + " (libopenblas.so.0, which torch does not use)"


def config_value(key):
    """A Build settings value of torch.__config__.show(), or "unknown"."""
    m = re.search(r"\b%s=([^,\s]*)" % key, torch.__config__.show())
    return m.group(1) if m else "unknown"


def info():
    capability = [line.split(":", 1)[1].strip() for line in torch.__config__.show().splitlines()
                  if "CPU capability usage" in line]
    return {"torch": torch.__version__, "python": sys.version.split()[0],
            "capability": capability[0] if capability else "unknown",
            "blas_info": config_value("BLAS_INFO"),
            "blas_lib": " ".join(blas_libs) or "unknown",
            "openblas_core": openblas_core(),
            "mkldnn": torch.backends.mkldnn.is_available(),
            "coretype_env": os.environ.get("OPENBLAS_CORETYPE", ""),
            "onednn_isa_env": os.environ.get("ONEDNN_MAX_CPU_ISA", ""),
            "omp_env": " ".join("%s=%s" % (k, os.environ[k]) for k in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")
                                if k in os.environ) or "defaults"}


def main():
    for line in sys.stdin:
        req = json.loads(line)
        try:
            out = info() if req["op"] == "info" else time_cell(req)
        except Exception as e:  # noqa: BLE001 - reported to the coordinator
            out = {"error": "%s: %s" % (type(e).__name__, e)}
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
