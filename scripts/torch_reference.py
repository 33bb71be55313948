#!/usr/bin/python3
"""Reference outputs from PyTorch for the parity tests of fxgen's model zoo.

Run by hand (tests and CI never need Python), with Debian's PyTorch:

    apt-get install -y python3-torch
    /usr/bin/python3 scripts/torch_reference.py            # writes the fixtures
    /usr/bin/python3 scripts/torch_reference.py mlp lstm   # only some models

It defines the seven models of MODELS.md in PyTorch with exactly the
state-dict names of the Go models and writes, for each model <name>, into
example_models/<name>/testdata/:

  torch_weights.safetensors  the model's state dict (mlp, resnet20, lstm,
                             fxdoc: weights from PyTorch's own initialisation
                             after torch.manual_seed(SEED), BatchNorm
                             statistics and affine parameters randomised)
  torch_io.safetensors       inputs and PyTorch's float32 outputs at a small
                             batch; its metadata records the PyTorch version,
                             where the weights come from and the state-dict
                             names and shapes
  torch_fx.txt               torch.fx.symbolic_trace(model).graph summarised:
                             node counts by opcode and by target, then the
                             nodes

For resnet18, dlrm and transformer the weights would take too much room
(46, 3.4 and 15 MB), so they are not committed: both sides compute them with
the deterministic fill below, which internal/testutil/fill.go implements in
Go (FillStateDict, HashInput). For element i of the tensor named `name`:

    h = FNV-1a 32-bit hash of name (UTF-8)
    v = (i * 2654435761 + h) mod 2001          (exact integer arithmetic)
    u = (v - 1000) / 1000                      (float64, in [-1, 1])
    rank >= 2:                          u / sqrt(numel / shape[0])
    rank <= 1 and name ends in running_var:  1 + 0.5 u
    rank <= 1 and name ends in weight:       1 + 0.1 u
    rank <= 1 otherwise:                     0.1 u
    int64 tensors (num_batches_tracked): 0

computed in float64 and rounded to float32. resnet18's input is also
filled: element i of x is hash_uniform("x", i) rounded to float32, so only
its outputs are committed.

The script is deterministic: fixed seeds, one thread, files written with
sorted names and no timestamps, so rerunning it changes no bytes.
"""

import collections
import json
import math
import os
import struct
import sys

import numpy as np
import torch
import torch.fx
import torch.nn as nn
import torch.nn.functional as F

SEED = 20240601
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# --- The models, with the state-dict names of MODELS.md ---------------------


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(784, 512)
        self.fc2 = nn.Linear(512, 512)
        self.fc3 = nn.Linear(512, 10)

    def forward(self, x):
        x = torch.relu(self.fc1(x))
        x = torch.relu(self.fc2(x))
        return self.fc3(x)


class BasicBlock(nn.Module):
    def __init__(self, inplanes, planes, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(inplanes, planes, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.relu = nn.ReLU()
        self.conv2 = nn.Conv2d(planes, planes, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.downsample = None
        if stride != 1 or inplanes != planes:
            self.downsample = nn.Sequential(
                nn.Conv2d(inplanes, planes, 1, stride, bias=False), nn.BatchNorm2d(planes))

    def forward(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        if self.downsample is not None:
            identity = self.downsample(x)
        return self.relu(out + identity)


def make_layer(inplanes, planes, blocks, stride):
    layers = [BasicBlock(inplanes, planes, stride)]
    layers += [BasicBlock(planes, planes, 1) for _ in range(blocks - 1)]
    return nn.Sequential(*layers)


class ResNet18(nn.Module):
    """torchvision.models.resnet18, written out with the same names."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 64, 7, 2, 3, bias=False)
        self.bn1 = nn.BatchNorm2d(64)
        self.relu = nn.ReLU()
        self.maxpool = nn.MaxPool2d(3, 2, 1)
        self.layer1 = make_layer(64, 64, 2, 1)
        self.layer2 = make_layer(64, 128, 2, 2)
        self.layer3 = make_layer(128, 256, 2, 2)
        self.layer4 = make_layer(256, 512, 2, 2)
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(512, 1000)

    def forward(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        return self.fc(torch.flatten(self.avgpool(x), 1))


class ResNet20(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, 1, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        self.relu = nn.ReLU()
        self.layer1 = make_layer(16, 16, 3, 1)
        self.layer2 = make_layer(16, 32, 3, 2)
        self.layer3 = make_layer(32, 64, 3, 2)
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(64, 10)

    def forward(self, x):
        x = self.relu(self.bn1(self.conv1(x)))
        x = self.layer3(self.layer2(self.layer1(x)))
        return self.fc(torch.flatten(self.avgpool(x), 1))


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(256, 768)
        self.proj = nn.Linear(256, 256)

    def forward(self, x):
        # Indexing, not unpacking: torch 1.13's tracer cannot unpack a
        # proxy under Python 3.11.
        qkv = self.qkv(x).split(256, dim=-1)
        q, k, v = qkv[0], qkv[1], qkv[2]
        q = q.reshape(-1, 128, 4, 64).transpose(1, 2)
        k = k.reshape(-1, 128, 4, 64).transpose(1, 2)
        v = v.reshape(-1, 128, 4, 64).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(64)
        mask = torch.triu(torch.ones(128, 128, dtype=torch.bool), diagonal=1)
        scores = scores.masked_fill(mask, float("-inf"))
        y = torch.softmax(scores, dim=-1) @ v
        return self.proj(y.transpose(1, 2).reshape(-1, 128, 256))


class TransformerMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(256, 1024)
        self.fc2 = nn.Linear(1024, 256)

    def forward(self, x):
        return self.fc2(F.gelu(self.fc1(x)))


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1 = nn.LayerNorm(256)
        self.attn = Attention()
        self.ln2 = nn.LayerNorm(256)
        self.mlp = TransformerMLP()

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class Transformer(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok_emb = nn.Embedding(1000, 256)
        self.pos_emb = nn.Parameter(torch.randn(128, 256) * 0.02)
        self.blocks = nn.ModuleList([Block() for _ in range(4)])
        self.ln_f = nn.LayerNorm(256)
        self.head = nn.Linear(256, 1000)

    def forward(self, tokens):
        x = self.tok_emb(tokens) + self.pos_emb
        for b in self.blocks:
            x = b(x)
        return self.head(self.ln_f(x))


class DLRM(nn.Module):
    def __init__(self):
        super().__init__()
        self.bot = nn.Sequential(nn.Linear(13, 512), nn.ReLU(), nn.Linear(512, 256), nn.ReLU(),
                                 nn.Linear(256, 64), nn.ReLU())
        self.emb = nn.ModuleList([nn.Embedding(1000, 64) for _ in range(8)])
        self.top = nn.Sequential(nn.Linear(100, 512), nn.ReLU(), nn.Linear(512, 256), nn.ReLU(),
                                 nn.Linear(256, 1))

    def forward(self, dense, sparse):
        b = self.bot(dense)
        t = torch.stack([b] + [e(sparse[:, i]) for i, e in enumerate(self.emb)], dim=1)  # [N,9,64]
        z = torch.bmm(t, t.transpose(1, 2))  # [N,9,9]
        li, lj = torch.tril_indices(9, 9, offset=-1)  # strictly below the diagonal, row-major
        r = torch.cat([b, z[:, li, lj]], dim=1)  # [N,100]
        return torch.sigmoid(self.top(r))


class LSTM(nn.Module):
    def __init__(self):
        super().__init__()
        self.ih = nn.Linear(128, 1024)
        self.hh = nn.Linear(256, 1024)

    def forward(self, x, h0, c0):
        h, c = h0, c0
        for t in range(16):
            gates = self.ih(x[:, t, :]) + self.hh(h)
            ch = gates.chunk(4, dim=1)  # i, f, g, o, indexed for torch.fx as in Attention
            i, f, g, o = torch.sigmoid(ch[0]), torch.sigmoid(ch[1]), torch.tanh(ch[2]), torch.sigmoid(ch[3])
            c = f * c + i * g
            h = o * torch.tanh(c)
        return h, c


class FXDoc(nn.Module):
    """The module of the torch.fx documentation."""

    def __init__(self):
        super().__init__()
        self.param = nn.Parameter(torch.rand(3, 4))
        self.linear = nn.Linear(4, 5)

    def forward(self, x):
        return torch.topk(torch.sum(self.linear(x + self.linear.weight).relu(), dim=-1), 3)


# --- Deterministic fill (internal/testutil/fill.go) -------------------------


def fnv32a(name):
    h = 0x811C9DC5
    for b in name.encode():
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return h


def hash_uniform(name, n):
    """u_i for i < n as float64, exactly as testutil.HashUniform."""
    i = np.arange(n, dtype=np.uint64)
    v = (i * np.uint64(2654435761) + np.uint64(fnv32a(name))) % np.uint64(2001)
    return (v.astype(np.int64) - 1000).astype(np.float64) / 1000.0


def fill_value(name, shape):
    n = int(np.prod(shape, dtype=np.int64))
    u = hash_uniform(name, n)
    if len(shape) >= 2:
        w = u / math.sqrt(n // shape[0])
    elif name.endswith("running_var"):
        w = 1 + 0.5 * u
    elif name == "weight" or name.endswith(".weight"):
        w = 1 + 0.1 * u
    else:
        w = 0.1 * u
    return torch.from_numpy(w.astype(np.float32).reshape(shape))


def fill_state_dict(model):
    with torch.no_grad():
        for name, t in model.state_dict().items():
            if t.dtype == torch.float32:
                t.copy_(fill_value(name, list(t.shape)))
            else:
                t.zero_()


def perturb_norms(model):
    """Gives BatchNorm layers non-trivial statistics and affine parameters
    (a fresh layer's mean 0, variance 1, weight 1, bias 0 would hide a
    mix-up of them) and a non-zero num_batches_tracked."""
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.weight.uniform_(0.5, 1.5)
                m.bias.uniform_(-0.2, 0.2)
                m.running_mean.uniform_(-0.2, 0.2)
                m.running_var.uniform_(0.5, 1.5)
                m.num_batches_tracked.fill_(100)


# --- safetensors, written as nn.WriteSafetensors does ----------------------

DTYPES = {torch.float32: "F32", torch.int64: "I64", torch.bool: "BOOL"}


def save_safetensors(path, tensors, metadata):
    header, chunks, offset = {}, [], 0
    if metadata:
        header["__metadata__"] = metadata
    for name in sorted(tensors):
        t = tensors[name].detach().contiguous()
        data = t.numpy().astype(t.numpy().dtype.newbyteorder("<")).tobytes()
        header[name] = {"dtype": DTYPES[t.dtype], "shape": list(t.shape),
                        "data_offsets": [offset, offset + len(data)]}
        chunks.append(data)
        offset += len(data)
    js = json.dumps(header, sort_keys=True, separators=(",", ":")).encode()
    js += b" " * (-len(js) % 8)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(js)))
        f.write(js)
        for c in chunks:
            f.write(c)


# --- torch.fx summaries ----------------------------------------------------


def fx_target(gm, node):
    if node.op == "call_module":
        return type(gm.get_submodule(node.target)).__name__
    if node.op == "call_function":
        return getattr(node.target, "__name__", str(node.target))
    return str(node.target)


def fx_summary(model):
    gm = torch.fx.symbolic_trace(model)
    nodes = list(gm.graph.nodes)
    ops = collections.Counter(n.op for n in nodes)
    targets = collections.Counter((n.op, fx_target(gm, n)) for n in nodes
                                  if n.op not in ("placeholder", "output"))
    lines = ["# torch.fx.symbolic_trace graph, torch %s" % torch.__version__,
             "nodes %d" % len(nodes), "", "# nodes by opcode"]
    lines += ["%-14s %d" % (op, ops[op]) for op in
              ("placeholder", "get_attr", "call_function", "call_module", "call_method", "output") if ops[op]]
    lines += ["", "# nodes by opcode and target (module type for call_module)"]
    lines += ["%-14s %-20s %d" % (op, t, c) for (op, t), c in sorted(targets.items())]
    lines += ["", "# nodes: opcode name target"]
    lines += ["%-14s %-24s %s" % (n.op, n.name, n.target if isinstance(n.target, str) else fx_target(gm, n))
              for n in nodes]
    return "\n".join(lines) + "\n", ops


# --- The fixtures ----------------------------------------------------------

N = 2


def inputs_for(name, gen):
    if name == "mlp":
        return {"x": torch.rand(N, 784, generator=gen) * 2 - 1}
    if name == "resnet18":  # batch 1: the Go test must be fast under -tags noasm too
        x = torch.from_numpy(hash_uniform("x", 1 * 3 * 224 * 224).astype(np.float32))
        return {"x": x.reshape(1, 3, 224, 224)}
    if name == "resnet20":
        return {"x": torch.rand(N, 3, 32, 32, generator=gen) * 2 - 1}
    if name == "transformer":
        return {"tokens": torch.randint(0, 1000, (N, 128), generator=gen)}
    if name == "dlrm":
        return {"dense": torch.rand(N, 13, generator=gen) * 2 - 1,
                "sparse": torch.randint(0, 1000, (N, 8), generator=gen)}
    if name == "lstm":
        return {"x": torch.rand(N, 16, 128, generator=gen) * 2 - 1,
                "h0": torch.rand(N, 256, generator=gen) * 2 - 1,
                "c0": torch.rand(N, 256, generator=gen) * 2 - 1}
    if name == "fxdoc":
        return {"x": torch.rand(N, 5, 4, generator=gen) * 2 - 1}
    raise KeyError(name)


# name: (constructor, input names in Forward order, output names, filled)
MODELS = {
    "mlp": (MLP, ["x"], ["out"], False),
    "resnet18": (ResNet18, ["x"], ["out"], True),
    "resnet20": (ResNet20, ["x"], ["out"], False),
    "transformer": (Transformer, ["tokens"], ["out"], True),
    "dlrm": (DLRM, ["dense", "sparse"], ["out"], True),
    "lstm": (LSTM, ["x", "h0", "c0"], ["h", "c"], False),
    "fxdoc": (FXDoc, ["x"], ["values", "indices"], False),
}


def run(name):
    ctor, in_names, out_names, filled = MODELS[name]
    torch.manual_seed(SEED)
    model = ctor().eval()
    if filled:
        fill_state_dict(model)
    else:
        perturb_norms(model)
    gen = torch.Generator().manual_seed(SEED + 1)
    inputs = inputs_for(name, gen)
    with torch.no_grad():
        outs = model(*[inputs[k] for k in in_names])
        outs = outs if isinstance(outs, tuple) else (outs,)
        # PyTorch's own float32 error, against the same model in float64.
        ref = model.double()(*[inputs[k].double() if inputs[k].is_floating_point() else inputs[k]
                               for k in in_names])
        ref = ref if isinstance(ref, tuple) else (ref,)
        model.float()
    f64err = max(float((o.double() - r).abs().max()) for o, r in zip(outs, ref) if o.is_floating_point())
    if name == "fxdoc":  # topk indices are only comparable without ties
        s = torch.sum(model.linear(inputs["x"] + model.linear.weight).relu(), dim=-1)
        top = torch.sort(s, dim=-1, descending=True).values
        assert bool((top[:, :3] > top[:, 1:4]).all()), "fxdoc: ties in the top 4; change SEED"
    testdata = os.path.join(ROOT, "example_models", name, "testdata")
    sd = model.state_dict()
    names = {k: list(v.shape) for k, v in sd.items()}
    meta = {
        "torch_version": torch.__version__,
        "model": name,
        "seed": str(SEED),
        "inputs": ",".join(in_names),
        "outputs": ",".join(out_names),
        "weights": "internal/testutil.FillStateDict" if filled else "torch_weights.safetensors",
        "state_dict": json.dumps(names, separators=(",", ":")),
        "torch_f32_vs_f64_max_abs_err": "%.3g" % f64err,
    }
    if not filled:
        save_safetensors(os.path.join(testdata, "torch_weights.safetensors"), dict(sd),
                         {"torch_version": torch.__version__, "model": name, "seed": str(SEED)})
    io = {} if name == "resnet18" else dict(inputs)
    io.update(dict(zip(out_names, outs)))
    save_safetensors(os.path.join(testdata, "torch_io.safetensors"), io, meta)
    text, ops = fx_summary(ctor())
    with open(os.path.join(testdata, "torch_fx.txt"), "w") as f:
        f.write(text)
    maxout = max(float(o.abs().max()) for o in outs if o.is_floating_point())
    print("%-12s max|out| %-9.3g f32-vs-f64 %-9.3g fx %s" % (
        name, maxout, f64err, " ".join("%s=%d" % kv for kv in sorted(ops.items()))))


def main():
    torch.set_num_threads(1)
    names = sys.argv[1:] or list(MODELS)
    for name in names:
        run(name)


if __name__ == "__main__":
    main()
