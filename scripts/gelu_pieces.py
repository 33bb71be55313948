#!/usr/bin/python3
"""Fits the exact GELU's piecewise polynomial for the vector kernels.

The AVX2 and AVX-512 kernels (runtime/activation_f32_*_amd64.s) compute
Φ(-a) = e^{-a²/2}·g(a) with g(a) = Φ(-a)·e^{a²/2}, taking g as a polynomial
of degree 5 in u = t - C, t = 1/w, w = 1 + S·a, on six pieces of w (the
halves of the binades [1, 2), [2, 4), [4, 8)). Each coefficient is fitted
for relative error (least squares reweighted toward the largest errors),
rounded to float32 from the highest degree down, the lower ones refitted
after each rounding. This prints the pieces' errors and the G16 lines of
runtime/activation_f32_amd64.h.

The kernels' fast path, for vectors whose every x is at least -4, takes
Φ(x) itself as a polynomial of degree 9 in u = x - C on eight pieces of
x + 5 (the halves of the binades [1, 2) to [8, 16), x clamped to 10.5,
where Φ rounds to 1), fitted and rounded the same way; the second part of
the output is its pieces' errors and G16 lines. The third is the same for
the tanh GELU's fast path: σ(v(x)), v = 2·√(2/π)·(x + 0.044715x³), on
pieces of x + 3.5 for x ≥ -2.5. Needs numpy and mpmath (Debian's
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


def fit(t0, t1, c, fixed, f=g, deg=DEG):
    """Coefficients of degree 0..deg of f on [t0, t1] around c, those in
    fixed held, minimizing the largest relative error."""
    m = 300
    ts = (t0 + t1) / 2 + (t1 - t0) / 2 * np.cos(np.pi * (np.arange(m) + 0.5) / m)
    ts = np.concatenate([ts, [t0, t1]])
    fs = np.array([f(t) for t in ts])
    u = ts - c
    free = [k for k in range(deg + 1) if k not in fixed]
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


def piece(t0, t1, f, deg):
    """The centre (rounded to float32) and float32 coefficients of degree
    0..deg of f on [t0, t1], rounded from the highest degree down, and
    the largest relative error."""
    c = float(np.float32((t0 + t1) / 2))
    fixed = {}
    for k in range(deg, -1, -1):
        fixed[k] = float(np.float32(fit(t0, t1, c, fixed, f, deg)[k]))
    coef = [fixed[k] for k in range(deg + 1)]
    tt = np.linspace(t0, t1, 2001)
    rel = np.polyval(coef[::-1], tt - c) / np.array([f(t) for t in tt]) - 1
    return c, coef, np.max(np.abs(rel))


def print_rows(prefix, pieces, piece_of_entry):
    """The G16 lines of the centres (prefix + "C") and the coefficients
    (prefix + "P0", ...), entry i of each row for piece piece_of_entry[i]."""
    rows = {prefix + "C": [pieces[p][0] for p in piece_of_entry]}
    for k in range(len(pieces[0][1])):
        rows[f"{prefix}P{k}"] = [pieces[p][1][k] for p in piece_of_entry]
    for name, vals in rows.items():
        print(f"G16({name}, " + ", ".join(f"$0x{bits(v):08x}" for v in vals) + ")")


pieces = []
for w0, w1 in zip(BOUNDS, BOUNDS[1:]):
    t0, t1 = 1 / min(w1, 1 + S * AMAX), 1 / w0
    c, coef, err = piece(t0, t1, g, DEG)
    print(f"// w in [{w0}, {w1}), a in [{(w0 - 1) / S:.3f}, {(min(w1, 1 + S * AMAX) - 1) / S:.3f}]: "
          f"relative error {err:.2e}")
    pieces.append((c, coef))

# Entry i of a row is for the w whose bits 22 to 24 are i.
print_rows("fG", pieces, [2, 3, 4, 5, 5, 5, 0, 1])

# The fast path: Φ(x) for x ≥ -4 on pieces of x + FAST_SHIFT.
FAST_SHIFT = 5
FAST_XMAX = 10.5
FAST_DEG = 9
FAST_BOUNDS = [1, 1.5, 2, 3, 4, 6, 8, 12, 16]


def phi(x):
    return float(mp.ncdf(x))


def fast_rows(prefix, f, shift, xmax):
    """Fits f on the pieces of x + shift (x clamped to xmax), printing
    their errors and G16 rows."""
    pieces = []
    for b0, b1 in zip(FAST_BOUNDS, FAST_BOUNDS[1:]):
        x0, x1 = b0 - shift, min(b1 - shift, xmax)
        # A little past each end: x + shift is rounded before its bits
        # pick the piece.
        c, coef, err = piece(x0 - 1e-6, x1 + 1e-6, f, FAST_DEG)
        print(f"// x in [{x0}, {x1}): relative error {err:.2e}")
        pieces.append((c, coef))
    # Entry i of a row is for the x + shift whose bits 22 to 24 are i:
    # [2, 3) is 0, ..., [12, 16) 5, [1, 1.5) 6 and [1.5, 2) 7.
    print_rows(prefix, pieces, [2, 3, 4, 5, 6, 7, 0, 1])


fast_rows("fGF", phi, FAST_SHIFT, FAST_XMAX)

# The tanh GELU's fast path: sigmoid(v(x)) for x ≥ -2.5 on pieces of
# x + TANH_SHIFT, the same binade halves.
TANH_SHIFT = 3.5
TANH_XMAX = 11.5


def tanh_gelu_factor(x):
    x = mp.mpf(x)
    v = 2 * mp.sqrt(2 / mp.pi) * (x + mp.mpf("0.044715") * x**3)
    return float(1 / (1 + mp.exp(-v)))


fast_rows("fGT", tanh_gelu_factor, TANH_SHIFT, TANH_XMAX)
