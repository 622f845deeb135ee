"""Pooling's kernels for ops/pooling.py: the op records (one per public op), the numpy references
(the cpu device) and the four differentiable primitives over a :class:`PoolGeometry` (max with
indices, its backward, average, its backward) that dispatch to them or to wgsl/pool.wgsl."""
from __future__ import annotations

import numpy as np

from .. import _dtype, autograd
from ..device.gpu_pool import PoolGeometry
from ..tensor import Tensor
from ._registry import OpDef, register

# ---- numpy references (the cpu device) -------------------------------------------------------------
def _windows(g: PoolGeometry):
    """Per output row and column: the input positions of each window tap (clipped to 0) and their
    validity, taps in scan order: (ih (OH, th), vh, iw (OW, tw), vw)."""
    def one(I, O, K, S, P, D):
        o = np.arange(O)
        if g.adaptive:
            start = (o * I) // O
            end = -((-(o + 1) * I) // O)
            taps = int((end - start).max()) if O else 0
            pos = start[:, None] + np.arange(taps)[None, :]
            return np.minimum(pos, I - 1), pos < end[:, None]
        pos = o[:, None] * S - P + np.arange(K)[None, :] * D
        return np.clip(pos, 0, I - 1), (pos >= 0) & (pos < I)
    ih, vh = one(g.H, g.OH, g.KH, g.SH, g.PH, g.DH)
    iw, vw = one(g.W, g.OW, g.KW, g.SW, g.PW, g.DW)
    return ih, vh, iw, vw


def np_max_pool(x: np.ndarray, g: PoolGeometry):
    ih, vh, iw, vw = _windows(g)
    shape = x.shape[:2] + (g.OH, g.OW)
    lowest = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    best = np.full(shape, lowest, x.dtype)
    at = np.full(shape, -1, np.int64)
    nan_seen = np.zeros(shape, bool)
    for a in range(ih.shape[1]):
        for b in range(iw.shape[1]):
            valid = vh[:, a][:, None] & vw[:, b][None, :]
            r, c = ih[:, a][:, None], iw[:, b][None, :]
            v = x[:, :, r, c]
            pos = r * g.W + c
            at = np.where(valid & (at < 0), pos, at)
            with np.errstate(invalid="ignore"):
                nan = np.isnan(v) if x.dtype.kind == "f" else np.zeros(v.shape, bool)
                upd = valid & (nan | (~nan_seen & (v > best)))
            best = np.where(upd, v, best)
            at = np.where(upd, pos, at)
            nan_seen |= valid & nan
    return best, at


def _scatter_in_output_order(vals: np.ndarray, pos: np.ndarray, g: PoolGeometry) -> np.ndarray:
    """dx: vals (N, C, OH, OW, T) added at plane positions pos (broadcastable; -1: none), output by
    output in ascending order, as PyTorch's CPU backward adds them."""
    NC = g.N * g.C
    vals = np.broadcast_to(vals, vals.shape[:4] + (pos.shape[-1],)).reshape(NC, -1)
    pos = np.broadcast_to(pos, (g.N, g.C, g.OH, g.OW, pos.shape[-1])).reshape(NC, -1)
    keep = pos >= 0
    rows = np.broadcast_to(np.arange(NC)[:, None], pos.shape)
    ft = np.float64 if vals.dtype == np.float64 else np.float32  # float64 data stays float64
    dx = np.zeros((NC, g.H * g.W), ft)
    np.add.at(dx, (rows[keep], pos[keep]), vals[keep].astype(ft))
    return dx.reshape(g.N, g.C, g.H, g.W)


def np_max_pool_backward(dy: np.ndarray, idx: np.ndarray, g: PoolGeometry) -> np.ndarray:
    return _scatter_in_output_order(dy[..., None], idx[..., None].astype(np.int64), g)


def _avg_divisors(g: PoolGeometry) -> np.ndarray:
    """(OH, OW) divisors as PyTorch's CPU kernel computes them."""
    oh, ow = np.arange(g.OH), np.arange(g.OW)
    if g.adaptive:
        kh = -((-(oh + 1) * g.H) // g.OH) - (oh * g.H) // g.OH
        kw = -((-(ow + 1) * g.W) // g.OW) - (ow * g.W) // g.OW
        return kh[:, None], kw[None, :]
    if g.divisor:
        return np.full((g.OH, g.OW), g.divisor)
    hs, ws = oh * g.SH - g.PH, ow * g.SW - g.PW
    he, we = np.minimum(hs + g.KH, g.H + g.PH), np.minimum(ws + g.KW, g.W + g.PW)
    if g.count_include_pad:
        return (he - hs)[:, None] * (we - ws)[None, :]
    return ((np.minimum(he, g.H) - np.maximum(hs, 0))[:, None] * (np.minimum(we, g.W) - np.maximum(ws, 0))[None, :])


def _divide(s: np.ndarray, div) -> np.ndarray:
    if s.dtype.kind != "f":  # integers: C's truncating division
        return np.sign(s) * (np.abs(s) // div)
    if isinstance(div, tuple):  # adaptive: / kh / kw
        return (s / div[0].astype(s.dtype)) / div[1].astype(s.dtype)
    return s / div.astype(s.dtype)


def np_avg_pool(x: np.ndarray, g: PoolGeometry) -> np.ndarray:
    ih, vh, iw, vw = _windows(g)
    # integers: int32 sums, as the WGSL kernel; float64 in float64
    acc = (np.float64 if x.dtype == np.float64 else np.float32) if x.dtype.kind == "f" else np.int32
    s = np.zeros(x.shape[:2] + (g.OH, g.OW), acc)
    xf = x.astype(acc, copy=False)
    for a in range(ih.shape[1]):
        for b in range(iw.shape[1]):
            valid = vh[:, a][:, None] & vw[:, b][None, :]
            s = s + np.where(valid, xf[:, :, ih[:, a][:, None], iw[:, b][None, :]], acc(0))
    return _divide(s, _avg_divisors(g))


def np_avg_pool_backward(dy: np.ndarray, g: PoolGeometry) -> np.ndarray:
    ih, vh, iw, vw = _windows(g)
    delta = _divide(dy.astype(np.float64 if dy.dtype == np.float64 else np.float32), _avg_divisors(g))
    th, tw = ih.shape[1], iw.shape[1]
    pos = (ih[:, None, :, None] * g.W + iw[None, :, None, :])                 # (OH, OW, th, tw)
    ok = vh[:, None, :, None] & vw[None, :, None, :]
    pos = np.where(ok, pos, -1).reshape(g.OH, g.OW, th * tw)
    return _scatter_in_output_order(delta[..., None], pos[None, None], g)


# Tolerances against PyTorch's CPU (float32). Max pooling moves values: exact. Average pooling adds
# at most kh*kw values in PyTorch's order and divides once (adaptive: twice, as PyTorch does); the
# division on a GPU may be 2.5 ulp off (WGSL's bound for f32 division): rtol 1e-6, and atol 1e-6 for
# windows whose sum cancels. Gradients: max gradients add the dy of overlapping windows in
# PyTorch's order (exact up to that); average gradients add dy/divisor terms: the replay's default
# gradient tolerance (rtol 1.3e-6, atol 1e-5).
_EXACT = (0.0, 0.0)
_AVG = (1e-6, 1e-6)


def _reg(name: str, block: str, tol, doc: str, **extra) -> OpDef:
    ref = {"max_fwd": np_max_pool, "max_bwd": np_max_pool_backward, "avg_fwd": np_avg_pool,
           "avg_bwd": np_avg_pool_backward}[block]
    return register(OpDef(name, "nn", ("pool.wgsl", block), ref, tol=tol, doc=doc, extra=extra))


MAX_POOL1D = _reg("max_pool1d", "max_fwd", _EXACT, "max over windows; gradient to the argmax", signed_zero=True)
MAX_POOL2D = _reg("max_pool2d", "max_fwd", _EXACT, "max over windows; gradient to the argmax", signed_zero=True)
ADAPTIVE_MAX_POOL2D = _reg("adaptive_max_pool2d", "max_fwd", _EXACT, "max over PyTorch's adaptive windows",
                           signed_zero=True)
AVG_POOL1D = _reg("avg_pool1d", "avg_fwd", _AVG, "mean over windows")
AVG_POOL2D = _reg("avg_pool2d", "avg_fwd", _AVG, "mean over windows (count_include_pad, divisor_override)")
ADAPTIVE_AVG_POOL1D = _reg("adaptive_avg_pool1d", "avg_fwd", _AVG, "mean over PyTorch's adaptive windows")
ADAPTIVE_AVG_POOL2D = _reg("adaptive_avg_pool2d", "avg_fwd", _AVG, "mean over PyTorch's adaptive windows")
_MAX_BWD = _reg("_max_pool_backward", "max_bwd", _EXACT, "gather of dy at the saved argmax", golden="max_pool2d")
_AVG_BWD = _reg("_avg_pool_backward", "avg_bwd", _AVG, "gather of dy / divisor over the windows", golden="avg_pool2d")
# ---- the differentiable primitives ---------------------------------------------------------------------
def _cpu(t: Tensor) -> np.ndarray:
    from ..device.cpu import BACKEND
    return BACKEND.view(t)


def _make(data, shape, dtype, device) -> Tensor:
    if isinstance(data, np.ndarray):  # the cpu device, and float64 on webgpu (held on the host)
        from ..device.cpu import CPUStorage
        data = CPUStorage(np.ascontiguousarray(data, dtype=dtype.storage_np).reshape(-1))
    return Tensor._make(data, shape, dtype, device)


def _max_pool(x: Tensor, g: PoolGeometry, name: str) -> tuple[Tensor, Tensor]:
    xd = x.detach()
    shape = (g.N, g.C, g.OH, g.OW)
    if x._device.type == "webgpu":
        from ..device import gpu_pool
        vals, idx = gpu_pool.max_forward(xd, g, x.dtype)
    else:
        vals, idx = np_max_pool(_cpu(xd), g)
    out = _make(vals, shape, x.dtype, x.device)
    ind = _make(idx, shape, _dtype.int64, x.device)
    if x.dtype.is_floating_point:
        autograd.record(name, [x], [out], lambda gy: (_max_pool_backward(gy, ind, g),), [x])
    return out, ind


def _max_pool_backward(dy: Tensor, idx: Tensor, g: PoolGeometry) -> Tensor:
    dyd = dy.detach()
    shape = (g.N, g.C, g.H, g.W)
    if dy._device.type == "webgpu":
        from ..device import gpu_pool
        dx = gpu_pool.max_backward(dyd, idx, g, dy.dtype)
    else:
        dx = np_max_pool_backward(_cpu(dyd), _cpu(idx), g)
    out = _make(dx, shape, dy.dtype, dy.device)

    def back(gg):  # the adjoint of a scatter through idx is a gather through it
        return (gg.reshape(g.N, g.C, g.H * g.W).gather(2, idx.reshape(g.N, g.C, -1)).reshape(dy._shape),)
    autograd.record("MaxPool2DWithIndicesBackwardBackward0", [dy], [out], back)
    return out


def _avg_pool(x: Tensor, g: PoolGeometry, name: str) -> Tensor:
    xd = x.detach()
    shape = (g.N, g.C, g.OH, g.OW)
    if x._device.type == "webgpu":
        from ..device import gpu_pool
        out = _make(gpu_pool.avg_forward(xd, g, x.dtype), shape, x.dtype, x.device)
    else:
        out = _make(np_avg_pool(_cpu(xd), g), shape, x.dtype, x.device)
    autograd.record(name, [x], [out], lambda gy: (_avg_pool_backward(gy, g),))
    return out


def _avg_pool_backward(dy: Tensor, g: PoolGeometry) -> Tensor:
    dyd = dy.detach()
    shape = (g.N, g.C, g.H, g.W)
    if dy._device.type == "webgpu":
        from ..device import gpu_pool
        out = _make(gpu_pool.avg_backward(dyd, g, dy.dtype), shape, dy.dtype, dy.device)
    else:
        out = _make(np_avg_pool_backward(_cpu(dyd), g), shape, dy.dtype, dy.device)
    autograd.record("AvgPool2DBackwardBackward0", [dy], [out], lambda gg: (_avg_pool(gg, g, "AvgPool2DBackward0"),))
    return out
