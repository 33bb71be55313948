"""Writes runtime/testdata/torch_kernels.json: PyTorch 1.13's outputs of the
kernels whose rounding rules are PyTorch's own (average pooling with
ceil_mode, interpolation, embedding bags, variance, max/min/argmax, gather,
where), on small random inputs. Run with Debian's python3-torch:

    /usr/bin/python3 scripts/torch_kernels.py
"""
import json
import torch
import torch.nn.functional as F

g = torch.Generator().manual_seed(7)
cases = []


def rnd(*shape):
    return torch.randn(*shape, generator=g)


def arr(t):
    return {"shape": list(t.shape), "dtype": str(t.dtype).replace("torch.", ""),
            "data": [float("%.9g" % v) if isinstance(v, float) else int(v) for v in t.flatten().tolist()]}


def add(kernel, inputs, attrs, outputs):
    cases.append({"kernel": kernel, "inputs": [arr(t) if t is not None else None for t in inputs],
                  "attrs": attrs, "outputs": [arr(t) for t in outputs]})


x = rnd(2, 3, 7, 6)
for k, s, p in [(3, 2, 1), (2, 2, 0), (3, 3, 1), (2, 1, 1), (2, 3, 1)]:
    for ceil in (False, True):
        for inc in (False, True):
            add("AvgPool2d", [x], {"kernel_size": [k], "stride": [s], "padding": [p], "ceil_mode": ceil,
                                   "count_include_pad": inc},
                [F.avg_pool2d(x, k, s, p, ceil_mode=ceil, count_include_pad=inc)])

x = rnd(1, 2, 5, 7)
for size, scale in [((5, 9), None), ((8, 12), None), ((3, 4), None), (None, (2.0, 2.0)), (None, (1.5, 2.5)), (None, (1.7, 2.3))]:
    y = F.interpolate(x, size=size, scale_factor=scale, mode="nearest")
    add("InterpolateNearest", [x], {"scales": list(scale) if scale else []}, [y])
    for ac in (False, True):
        y = F.interpolate(x, size=size, scale_factor=scale, mode="bilinear", align_corners=ac)
        add("InterpolateBilinear", [x], {"align_corners": ac, "scales": list(scale) if scale else []}, [y])

w = rnd(10, 4)
idx = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9], dtype=torch.int64)
off = torch.tensor([0, 3, 3, 6], dtype=torch.int64)
idx2 = torch.tensor([[1, 2, 3], [9, 0, 0]], dtype=torch.int64)
for mode, m in [("sum", 0), ("mean", 1), ("max", 2)]:
    add("EmbeddingBag", [idx, w, off], {"mode": m}, [F.embedding_bag(idx, w, off, mode=mode)])
    add("EmbeddingBag", [idx2, w, None], {"mode": m}, [F.embedding_bag(idx2, w, mode=mode)])

x = rnd(3, 4, 5)
for dims in ([], [1], [0, 2], [-1]):
    for corr in (0, 1):
        v = torch.var(x, dim=dims if dims else None, unbiased=bool(corr))
        add("Var", [x], {"dims": dims, "correction": corr}, [v])
    add("Mean", [x], {"dims": dims}, [torch.mean(x, dim=dims) if dims else torch.mean(x)])

xi = torch.tensor([[3, 1, 3, 2], [0, 5, 5, -1], [7, 7, 7, 7]], dtype=torch.float32)
for dim in (0, 1, -1):
    vals, ids = torch.max(xi, dim)
    add("MaxDim", [xi], {"dim": dim}, [vals, ids])
    vals, ids = torch.min(xi, dim)
    add("MinDim", [xi], {"dim": dim}, [vals, ids])
    add("ArgMax", [xi], {"dim": dim}, [torch.argmax(xi, dim)])
    add("ArgMin", [xi], {"dim": dim}, [torch.argmin(xi, dim)])

x = rnd(3, 4, 5)
index = torch.randint(0, 4, (3, 2, 5), generator=g)
add("Gather", [x, index], {"dim": 1}, [torch.gather(x, 1, index)])
index = torch.randint(0, 3, (2, 4, 3), generator=g)
add("Gather", [x, index], {"dim": 0}, [torch.gather(x, 0, index)])

cond = rnd(4, 1) > 0
a, b = rnd(3, 4, 5), rnd(5)
add("Where", [cond, a, b], {}, [torch.where(cond, a, b)])

with open("runtime/testdata/torch_kernels.json", "w") as f:
    json.dump({"torch": torch.__version__, "cases": cases}, f, separators=(",", ":"))
