"""Writes torchfx_counts.json: the nodes torch.fx records for the models of
torchfx_test.go, written the PyTorch way. Run with torch (1.13 was used):

    python3 torchfx_counts.py > torchfx_counts.json

The tests read the JSON only; they never need torch.
"""
import collections
import json

import torch
import torch.fx
import torch.nn as nn


class DynamicGate(nn.Module):
    def forward(self, x):
        x = x.relu() if x.sum().item() > 0 else -x
        for _ in range(5):
            if x.sum().item() <= 4:
                break
            x = x * 0.5
        return x


class ClsToken(nn.Module):
    def __init__(self):
        super().__init__()
        self.cls = nn.Parameter(torch.rand(1, 1, 4))
        self.proj = nn.Linear(4, 4)
        self.gate = DynamicGate()

    def forward(self, x):
        n = x.size(0)
        cls = self.cls.expand(n, -1, -1)
        h = self.proj(torch.cat([cls, x], 1))
        h = self.gate(h)
        return h.view(n, -1) + x.new_zeros(n, 16)  # torch.zeros(n, 16) does not trace


class HeadSplit(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 16)

    def forward(self, x):
        b, t = x.size(0), x.size(1)
        h = self.fc(x)
        h = h.view(b, t, 4, 4).transpose(1, 2)
        h = h.reshape(b * 4, t, 4)
        h = h * x.new_ones(b * 4, t, 1)
        return h.reshape(b, -1)


class LeafTracer(torch.fx.Tracer):
    def is_leaf_module(self, m, name):
        return name == "gate" or super().is_leaf_module(m, name)


def counts(model):
    g = LeafTracer().trace(model)
    ops = collections.Counter(n.op for n in g.nodes)
    return {"nodes": len(g.nodes), "opcodes": dict(sorted(ops.items()))}


print(json.dumps({"torch": torch.__version__, "ClsToken": counts(ClsToken()), "HeadSplit": counts(HeadSplit())}, indent=1, sort_keys=True))
