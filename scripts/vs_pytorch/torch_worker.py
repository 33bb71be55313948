#!/usr/bin/python3
"""PyTorch side of scripts/vs_pytorch: a worker kept alive by the Go
coordinator. It reads one JSON request a line on stdin and answers one JSON
line on stdout:

    {"op": "info"}                                  -> versions, BLAS core
    {"op": "time", "model": "mlp", "n": 256, "threads": 1, "target_ms": 300}
                                                    -> {"ns": ..., "calls": ..., "path": ...}

Each (model, n) is built once and kept: the zoo's model of
scripts/torch_reference.py in eval mode, its default initialisation, random
inputs of the Go side's shapes, compiled with
torch.jit.optimize_for_inference(torch.jit.trace(...)) (PyTorch's best CPU
path; the plain trace, then eager, if that fails).
"""

import ctypes
import json
import os
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch_reference as ref  # noqa: E402

cache = {}


def loaded_openblas():
    """The OpenBLAS library torch runs on (found in this process's maps),
    or None."""
    torch.zeros(2, 2) @ torch.zeros(2, 2)
    with open("/proc/self/maps") as f:
        paths = sorted({line.split()[-1] for line in f if "openblas" in line})
    for path in paths:
        try:
            lib = ctypes.CDLL(path)
            lib.openblas_get_corename.restype = ctypes.c_char_p
            return lib
        except (OSError, AttributeError):
            continue
    return None


# OpenBLAS keeps its own thread pool (OPENBLAS_NUM_THREADS, default all
# cores), which torch.set_num_threads does not change: each cell sets both.
openblas = loaded_openblas()


def build(name, n):
    key = (name, n)
    if key in cache:
        return cache[key]
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
            fn(*args)
        except Exception:  # noqa: BLE001 - any failure falls back
            try:
                path = "jit.trace"
                fn = torch.jit.trace(model, args)
                fn(*args)
            except Exception:  # noqa: BLE001
                path = "eager"
                fn = model
    cache[key] = (fn, args, path)
    return cache[key]


def time_cell(req):
    fn, args, path = build(req["model"], req["n"])
    torch.set_num_threads(req["threads"])
    if openblas is not None:
        openblas.openblas_set_num_threads(req["threads"])
    target = req["target_ms"] / 1000.0
    with torch.no_grad():
        fn(*args)  # warm: the thread count may have changed
        calls, start, cpu = 0, time.perf_counter(), time.process_time()
        while True:
            fn(*args)
            calls += 1
            elapsed = time.perf_counter() - start
            if elapsed >= target:
                break
        cpu = time.process_time() - cpu
    # cpu: the cores kept busy on average (at most threads if they hold).
    return {"ns": elapsed * 1e9 / calls, "calls": calls, "path": path, "cpu": cpu / elapsed}


def openblas_core():
    return openblas.openblas_get_corename().decode() if openblas is not None else "unknown"


def info():
    return {"torch": torch.__version__, "python": sys.version.split()[0],
            "blas": "OpenBLAS core " + openblas_core(),
            "mkldnn": torch.backends.mkldnn.is_available(),
            "coretype_env": os.environ.get("OPENBLAS_CORETYPE", "")}


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
