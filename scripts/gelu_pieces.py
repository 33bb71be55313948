#!/usr/bin/python3
"""Fits the exact GELU's piecewise polynomial for the vector kernels.

The AVX2 and AVX-512 kernels (runtime/activation_f32_*_amd64.s) compute
Φ(-a) = e^{-a²/2}·g(a) with g(a) = Φ(-a)·e^{a²/2}, taking g as a polynomial
of degree 5 in u = t - C, t = 1/w, w = 1 + S·a, on six pieces of w (the
halves of the binades [1, 2), [2, 4), [4, 8)). Each coefficient is fitted
for relative error (least squares reweighted toward the largest errors),
rounded to float32 from the highest degree down, the lower ones refitted
after each rounding. This prints the pieces' errors and the G16 lines of
runtime/activation_f32_amd64.h. Needs numpy and mpmath (Debian's
python3-numpy and python3-mpmath); nothing in the build runs it.
"""
import struct

import mpmath as mp
import numpy as np

mp.mp.dps = 40
S = float(np.float32(0.45))
AMAX = 14.95  # a little past the kernels' cut at 14.9
DEG = 5
BOUNDS = [1, 1.5, 2, 3, 4, 6, 8]


def g(t):
    """Φ(-a)·e^{a²/2} for a = (1/t - 1)/S."""
    a = (1 / mp.mpf(t) - 1) / S
    return float(mp.erfc(a / mp.sqrt(2)) / 2 * mp.exp(a * a / 2))


def fit(t0, t1, c, fixed):
    """Coefficients of degree 0..DEG on [t0, t1] around c, those in fixed
    held, minimizing the largest relative error."""
    m = 300
    ts = (t0 + t1) / 2 + (t1 - t0) / 2 * np.cos(np.pi * (np.arange(m) + 0.5) / m)
    ts = np.concatenate([ts, [t0, t1]])
    fs = np.array([g(t) for t in ts])
    u = ts - c
    free = [k for k in range(DEG + 1) if k not in fixed]
    rest = fs - sum(v * u**k for k, v in fixed.items())
    v = np.stack([u**k for k in free], 1)
    w = np.ones(len(ts))
    for _ in range(50):
        coef = np.linalg.lstsq(v / fs[:, None] * np.sqrt(w)[:, None], rest / fs * np.sqrt(w), rcond=None)[0]
        err = np.abs((v @ coef - rest) / fs)
        w = w * (err + 1e-30)
        w /= w.sum()
    out = dict(fixed)
    out.update(zip(free, coef))
    return out


def bits(f):
    return struct.unpack("<I", struct.pack("<f", np.float32(f)))[0]


pieces = []
for w0, w1 in zip(BOUNDS, BOUNDS[1:]):
    t0, t1 = 1 / min(w1, 1 + S * AMAX), 1 / w0
    c = float(np.float32((t0 + t1) / 2))
    fixed = {}
    for k in range(DEG, -1, -1):
        fixed[k] = float(np.float32(fit(t0, t1, c, fixed)[k]))
    coef = [fixed[k] for k in range(DEG + 1)]
    tt = np.linspace(t0, t1, 2001)
    rel = np.polyval(coef[::-1], tt - c) / np.array([g(t) for t in tt]) - 1
    print(f"// w in [{w0}, {w1}), a in [{(w0 - 1) / S:.3f}, {(min(w1, 1 + S * AMAX) - 1) / S:.3f}]: "
          f"relative error {np.max(np.abs(rel)):.2e}")
    pieces.append((c, coef))

# Entry i of a row is for the w whose bits 22 to 24 are i.
piece_of_entry = [2, 3, 4, 5, 5, 5, 0, 1]
rows = {"fGC": [pieces[p][0] for p in piece_of_entry]}
for k in range(DEG + 1):
    rows[f"fGP{k}"] = [pieces[p][1][k] for p in piece_of_entry]
for name, vals in rows.items():
    print(f"G16({name}, " + ", ".join(f"${bits(v):#08x}" for v in vals) + ")")
