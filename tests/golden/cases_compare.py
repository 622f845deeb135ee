"""Golden cases: isclose, allclose and equal (imported by cases.py)."""
from __future__ import annotations

import numpy as np

from cases import BROADCAST_SHAPES, SPECIAL, Big, V, bools, case, golden, ints, rand, tr

_ULP = np.float32(2.0 ** -23)


def near(a, scales=(0.0, 1e-7, 3e-6, 9e-6, 1.2e-5, 1e-4)):
    """``a`` with each element nudged by a relative amount drawn from ``scales`` (around rtol=1e-5)."""
    s = np.asarray(scales, dtype=np.float32)[np.arange(a.size) % len(scales)].reshape(a.shape)
    sign = np.where(np.arange(a.size).reshape(a.shape) % 2 == 0, 1, -1).astype(np.float32)
    return np.asarray(a * (1 + sign * s), dtype=np.float32).reshape(a.shape)


def boundary():
    """Pairs where |a - b| lies at atol + rtol * |b| and one ulp either side (float32 rounding decides)."""
    b = np.array([1.0, 1.0, 1.0, -3.0, 100.0, 1e-3, 0.0, 0.0, 0.0], dtype=np.float32)
    tol = (np.float32(1e-8) + np.abs(b * np.float32(1e-5))).astype(np.float32)
    a = []
    for bi, ti in zip(b, tol):
        for k in (-1, 0, 1):
            a.append(np.float32(bi + ti) + np.float32(k) * np.spacing(np.float32(bi + ti)))
    return np.array(a, dtype=np.float32), np.repeat(b, 3)


@golden("isclose")
def _isclose():
    out = []
    for sa, sb in BROADCAST_SHAPES:
        # values from a small set, so that broadcast elements match and differ
        a, b = (ints(s, -2, 2).astype(np.float32) for s in (sa, sb))
        out.append(case("isclose", a, b, id=f"f32 {sa} {sb}"))
    a = rand((4, 6))
    out.append(case("isclose", near(a), a, id="nudged around rtol"))
    out.append(case("isclose", a, near(a), id="nudged around rtol, swapped"))
    out.append(case("isclose", near(a, (0, 0.05, 0.1, 0.2)), a, rtol=0.1, id="rtol=0.1"))
    out.append(case("isclose", near(a, (0, 0.05, 0.1, 0.2)), a, 0.1, 0.0, id="positional rtol atol"))
    out.append(case("isclose", a + np.float32(0.01), a, rtol=0.0, atol=0.02, id="atol only"))
    out.append(case("isclose", near(a, (0, 1e-7)), a, rtol=0, atol=0, id="zero tolerances"))
    x, y = boundary()
    out.append(case("isclose", x, y, id="at the boundary, float32 rounding"))
    p, q = np.meshgrid(SPECIAL, SPECIAL, indexing="ij")
    out.append(case("isclose", p.copy(), q.copy(), id="special values"))
    out.append(case("isclose", p.copy(), q.copy(), equal_nan=True, id="special values equal_nan"))
    out.append(case("isclose", p.copy(), q.copy(), atol=float("inf"), id="special values atol=inf"))
    for dt in ("int64", "int32"):
        i = ints((3, 5), -20, 20, dt)
        j = (i + ints((3, 5), -1, 1, dt)).astype(dt)
        out.append(case("isclose", i, j, id=f"{dt}"))
        out.append(case("isclose", i, j, atol=1, id=f"{dt} atol=1"))
        out.append(case("isclose", i, j, rtol=0.1, atol=0, id=f"{dt} rtol=0.1"))
        out.append(case("isclose", i, j, equal_nan=True, id=f"{dt} equal_nan"))
    big = np.array([16777217, 16777216, 2 ** 30, -2 ** 30], dtype=np.int64)
    out.append(case("isclose", big, big[[1, 0, 2, 2]].copy(), rtol=0, atol=0.5, id="int64 beyond float32 precision"))
    out.append(case("isclose", bools((2, 5)), bools((2, 5)), id="bool"))
    out.append(case("isclose", bools((2, 5)), bools((2, 5)), atol=1, id="bool atol=1"))
    out.append(case("isclose", np.array(1.0, np.float32), np.array([1.0, 1.000001, 1.1], np.float32), id="0-d input"))
    out.append(case("isclose", tr(rand((5, 3))), tr(rand((5, 3))), id="transposed views"))
    out.append(case("isclose", V(a, ("t",)), V(near(a), ("t",)), id="transposed nudged"))
    out.append(case("Tensor.isclose", near(a), a, id="method"))
    out.append(case("Tensor.isclose", near(a), a, 1e-4, 1e-6, True, id="method positional"))
    out.append(case("isclose", Big((1 << 20,), seed=40), V(Big((1 << 20,), seed=40), ("mul", 1.00001)),
                    id="1M nudged"))
    # PyTorch refuses these
    out.append(case("isclose", rand((3,)), rand((3,), "int64"), id="error: float and int64"))
    out.append(case("isclose", rand((3,), "int64"), rand((3,), "int32"), id="error: int64 and int32"))
    out.append(case("isclose", rand((3,)), 1.0, id="error: Python number other"))
    out.append(case("isclose", rand((2,)), rand((3,)), id="error: not broadcastable"))
    out.append(case("isclose", rand((2,)), rand((2,)), rtol=-1.0, id="error: negative rtol"))
    out.append(case("isclose", rand((2,)), rand((2,)), atol=-1e-3, id="error: negative atol"))
    return out


@golden("allclose")
def _allclose():
    out = []
    a = rand((4, 5))
    for s, ident in (((0.0,), "identical"), ((0.0, 3e-6), "within rtol"), ((0.0, 3e-6, 5e-5), "one past rtol")):
        out.append(case("allclose", near(a, s), a, id=ident))
    out.append(case("allclose", near(a, (0.0, 5e-5)), a, rtol=1e-4, id="rtol=1e-4"))
    out.append(case("allclose", rand((3, 1)), rand((1, 4)), id="broadcast, not close"))
    out.append(case("allclose", np.ones((2,), np.float32), np.ones((2, 2), np.float32), id="broadcast, close"))
    nan = np.array([1.0, np.nan, np.inf], np.float32)
    out.append(case("allclose", nan, nan.copy(), id="nan"))
    out.append(case("allclose", nan, nan.copy(), equal_nan=True, id="nan equal_nan"))
    out.append(case("allclose", np.zeros((0, 3), np.float32), np.zeros((0, 3), np.float32), id="empty"))
    out.append(case("allclose", ints((3, 4)), ints((3, 4)), id="int64"))
    out.append(case("allclose", bools((5,)), bools((5,)), id="bool"))
    out.append(case("Tensor.allclose", near(a, (0.0, 3e-6)), a, id="method"))
    out.append(case("Tensor.allclose", near(a, (0.0, 3e-3)), a, 0, 0, True, id="method positional"))
    out.append(case("allclose", Big((1 << 20,), seed=41), V(Big((1 << 20,), seed=41), ("mul", 1.000004)),
                    id="1M close"))
    out.append(case("allclose", rand((3,)), rand((3,), "int64"), id="error: float and int64"))
    out.append(case("allclose", rand((3,)), 1.0, id="error: Python number other"))
    out.append(case("allclose", rand((2,)), rand((3,)), id="error: not broadcastable"))
    out.append(case("allclose", rand((2,)), rand((2,)), rtol=-0.5, id="error: negative rtol"))
    return out


@golden("equal")
def _equal():
    out = []
    a = rand((3, 4))
    out.append(case("equal", a, a.copy(), id="identical"))
    out.append(case("equal", near(a, (0.0, 1e-7)), a, id="one ulp apart"))
    out.append(case("equal", a, a[:, :3].copy(), id="different shapes"))
    out.append(case("equal", np.ones((2,), np.float32), np.ones((1,), np.float32), id="no broadcasting"))
    out.append(case("equal", np.array(1.0, np.float32), np.array([1.0], np.float32), id="0-d and 1 element"))
    out.append(case("equal", np.array([np.nan, 1.0], np.float32), np.array([np.nan, 1.0], np.float32), id="nan"))
    out.append(case("equal", np.array([0.0, np.inf], np.float32), np.array([-0.0, np.inf], np.float32),
                    id="signed zero and inf"))
    out.append(case("equal", np.zeros((0,), np.float32), np.zeros((0,), np.float32), id="empty"))
    out.append(case("equal", np.zeros((0,), np.float32), np.zeros((0, 1), np.float32), id="empty, other shape"))
    i = ints((3, 4))
    out.append(case("equal", i, i.copy(), id="int64"))
    out.append(case("equal", i, i.astype(np.float32), id="int64 and float32"))
    out.append(case("equal", i, (i.astype(np.float32) + np.float32(0.5)), id="int64 and float32, differing"))
    out.append(case("equal", i, i.astype(np.int32), id="int64 and int32"))
    out.append(case("equal", np.array([True, False]), np.array([1.0, 0.0], np.float32), id="bool and float32"))
    out.append(case("equal", np.array([True, False]), np.array([2, 0]), id="bool and int64"))
    out.append(case("equal", bools((6,)), bools((6,)), id="bool"))
    out.append(case("equal", V(a, ("t",)), a.T.copy(), id="transposed view and its copy"))
    out.append(case("Tensor.equal", a, a.copy(), id="method"))
    out.append(case("equal", Big((1 << 20,), seed=42), Big((1 << 20,), seed=42), id="1M identical"))
    out.append(case("equal", Big((1 << 20,), seed=42), V(Big((1 << 20,), seed=42), ("mul", 1.0000002)),
                    id="1M nudged"))
    out.append(case("equal", a, 1.0, id="error: Python number other"))
    out.append(case("equal", 1.0, a, id="error: Python number input"))
    return out
