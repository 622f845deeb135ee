"""The numpy references of ops/special.py's kernels (the cpu device runs them; float64 host tensors too):
computed in float64 with Python's math module, series and recurrences, returned in the input's dtype."""
from __future__ import annotations

import builtins
import math

import numpy as np

__all__: list[str] = []


def _f64(fn):
    """A numpy reference computed in float64 and returned in the input's dtype."""
    def ref(a, *p):
        return np.asarray(fn(np.asarray(a, np.float64), *p)).astype(np.asarray(a).dtype)
    return ref


def _vec(scalar):
    v = np.vectorize(scalar, otypes=[np.float64])
    return lambda a, *p: v(a, *p) if np.asarray(a).size else np.asarray(a, np.float64)


def _lgamma1(x):
    if math.isnan(x):
        return x
    if math.isinf(x) or (x <= 0 and x == math.floor(x)):
        return math.inf
    return math.lgamma(x)


def _digamma1(x):
    if math.isnan(x) or x == math.inf:
        return x
    if x == -math.inf:
        return math.nan
    if x == 0:
        return math.inf if math.copysign(1.0, x) < 0 else -math.inf
    if x < 0:
        if x == math.floor(x):
            return math.nan
        return _digamma1(1 - x) - math.pi / math.tan(math.pi * x)
    acc = 0.0
    while x < 10:
        acc -= 1 / x
        x += 1
    r2 = 1 / (x * x)
    return acc + math.log(x) - 0.5 / x - r2 * (1 / 12 - r2 * (1 / 120 - r2 * (1 / 252 - r2 * (1 / 240 - r2 / 132))))


_BERN = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510)


def _zeta1(s, q):
    """Hurwitz zeta(s, q), s > 1, by Euler-Maclaurin (float64)."""
    if q <= 0 and q == math.floor(q):
        return math.inf
    total, x = 0.0, q
    for _ in range(20):
        total += x ** -s
        x += 1
    tail = x ** (1 - s) / (s - 1) + 0.5 * x ** -s
    fac = s * x ** (-s - 1)
    fact = 2.0
    for k, b in enumerate(_BERN):
        tail += b / fact * fac
        fac *= (s + 2 * k + 1) * (s + 2 * k + 2) / (x * x)
        fact *= (2 * k + 3) * (2 * k + 4)
    return total + tail


def _polygamma1(x, n):
    n = builtins.int(n)
    if n == 0:
        return _digamma1(x)
    if math.isnan(x):
        return x
    return (-1) ** (n + 1) * math.factorial(n) * _zeta1(n + 1, x)


def _erfinv1(y):
    if math.isnan(y) or abs(y) > 1:
        return math.nan
    if abs(y) == 1:
        return math.copysign(math.inf, y)
    if y == 0:
        return y
    w = -math.log((1 - y) * (1 + y))
    x = math.copysign(math.sqrt(w) * 0.8, y) if w > 5 else y * 0.886
    for _ in range(60):  # Newton on erf(x) = y, in float64
        step = (math.erf(x) - y) / (2 / math.sqrt(math.pi) * math.exp(-x * x))
        x -= step
        if abs(step) <= 1e-16 * abs(x):
            break
    return x


def _i1_1(x):
    ax = abs(x)
    if math.isnan(x):
        return x
    if ax > 30:
        if ax > 715:
            return math.copysign(math.inf, x)
        s, term = 1.0, 1.0
        for k in range(1, 12):
            term *= -(4 - (2 * k - 1) ** 2) / (k * 8 * ax)
            s += term
        return math.copysign(math.exp(ax) / math.sqrt(2 * math.pi * ax) * s, x)
    h, term, s = ax / 2, ax / 2, ax / 2
    for k in range(1, 80):
        term *= h * h / (k * (k + 1))
        s += term
    return math.copysign(s, x)
