"""Writes golden/testdata/torch_fx_graphs.json: the nodes torch.fx
(PyTorch 1.13) traces for two models written the PyTorch way, whose Go
twins are in golden/pytorch_way_test.go. Run with Debian's python3-torch:

    /usr/bin/python3 scripts/torch_fx_counts.py
"""
import json
import torch
import torch.fx
import torch.nn as nn
import torch.nn.functional as F


class PatchNet(nn.Module):
    """Conv, ReLU6, nearest upsampling, dropout, a class token expanded to
    the batch, and a view to the batch size read from the input."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.act = nn.ReLU6()
        self.drop = nn.Dropout(0.1)
        self.cls = nn.Parameter(torch.zeros(1, 1, 8))
        self.fc = nn.Linear(8 * 65, 10)

    def forward(self, x):
        y = self.act(self.conv(x))
        y = F.interpolate(y, scale_factor=2.0, mode="nearest")
        y = self.drop(y)
        tokens = y.flatten(2).transpose(1, 2)
        cls = self.cls.expand(x.size(0), -1, -1)
        z = torch.cat([cls, tokens], 1)
        z = z.view(x.size(0), -1)
        return self.fc(z)


class BagNet(nn.Module):
    """An EmbeddingBag with offsets beside dense features, dropout, and an
    output viewed to the batch size."""

    def __init__(self):
        super().__init__()
        self.bag = nn.EmbeddingBag(100, 8, mode="mean")
        self.drop = nn.Dropout(0.2)
        self.fc = nn.Linear(12, 1)

    def forward(self, dense, indices, offsets):
        e = self.bag(indices, offsets)
        z = torch.cat([e, dense], 1)
        z = self.drop(z)
        return torch.sigmoid(self.fc(z)).view(dense.size(0))


out = {"torch": torch.__version__, "models": {}}
for m in (PatchNet(), BagNet()):
    g = torch.fx.symbolic_trace(m).graph
    nodes = [{"op": n.op, "target": n.target if isinstance(n.target, str) else getattr(n.target, "__name__", str(n.target))}
             for n in g.nodes]
    out["models"][type(m).__name__] = nodes
with open("golden/testdata/torch_fx_graphs.json", "w") as f:
    json.dump(out, f, indent=1)
    f.write("\n")
for name, nodes in out["models"].items():
    print(name, len(nodes), [n["op"] + ":" + n["target"] for n in nodes])
