"""Batch normalisation of float32 (N, C, *) inputs as fused kernels: two dispatches forward (the
statistics with the running-stat update, then the normalised and affine output) and two backward
(the per-channel sums, which are also the weight and bias gradients, then the input gradient),
instead of a dozen elementwise and reduction ops each way. Evaluation mode is one kernel.

On ``webgpu`` these are wgsl/batchnorm.wgsl (device/gpu_norm.py); on ``cpu`` the numpy references
below, so both devices run the same autograd structure. The fused backward is a first-order
formula: with ``create_graph=True`` the backward is written with differentiable ops instead (the
composite of ops/_nn_norm.py's forward, differentiated), so gradients of any order stay right.
"""
from __future__ import annotations

import numpy as np

from .. import autograd
from ..tensor import Tensor
from ._registry import OpDef, register

__all__ = ["fused_ok", "batch_norm_train", "batch_norm_eval"]

_TOL = (1e-5, 1e-5)  # as ops/_nn_norm.py's normalisations: O(1) outputs, float32 sums and a sqrt
for _name, _mode in (("_batch_norm_stats", "stats"), ("_batch_norm_apply", "apply"), ("_batch_norm_eval", "apply"),
                     ("_batch_norm_backward_reduce", "bwd_reduce"), ("_batch_norm_backward", "bwd_apply")):
    register(OpDef(_name, "nn", ("batchnorm.wgsl", _mode), None, tol=_TOL, extra={"golden": "batch_norm"}))


def fused_ok(x: Tensor, *vectors) -> bool:
    """The fused kernels serve float32 inputs of at least 2 dims whose vectors are contiguous float32
    (the kernels read them at an offset with stride 1; an expanded weight takes the composite)."""
    if x.dtype.name != "float32" or x.dim() < 2 or x.numel() == 0:
        return False
    return all(v is None or (v.dtype.name == "float32" and v.device == x.device and v.is_contiguous())
               for v in vectors)


def _dims(x: Tensor) -> list[int]:
    return [0] + list(range(2, x.dim()))


# ---- numpy references (the cpu device) ---------------------------------------------------------------
def _np(t: Tensor) -> np.ndarray:
    from ..device.cpu import BACKEND
    return BACKEND.view(t)


def _np3(t: Tensor) -> np.ndarray:
    return _np(t).reshape(t.shape[0], t.shape[1], -1).astype(np.float32)


def _cpu_tensor(arr: np.ndarray, shape, like: Tensor) -> Tensor:
    from ..device.cpu import CPUStorage
    return Tensor._make(CPUStorage(np.ascontiguousarray(arr, dtype=np.float32).reshape(-1)), shape, like.dtype,
                        like.device)


def _np_stats(x3: np.ndarray, rm, rv, momentum: float, eps: float) -> np.ndarray:
    mean = x3.mean((0, 2), dtype=np.float64)
    var = ((x3 - mean[None, :, None]) ** 2).mean((0, 2), dtype=np.float64)
    L = x3.shape[0] * x3.shape[2]
    if rm is not None:
        m = np.float32(momentum)
        a, b = _np(rm), _np(rv)
        a[...] = (np.float32(1) - m) * a + m * mean.astype(np.float32)
        b[...] = (np.float32(1) - m) * b + m * (var * (L / (L - 1))).astype(np.float32)
    return np.concatenate([mean, 1.0 / np.sqrt(var + eps)]).astype(np.float32)


def _np_apply(x3, mean, inv, w, b, relu: bool) -> np.ndarray:
    y = (x3 - mean[None, :, None]) * inv[None, :, None]
    if w is not None:
        y = y * _np(w).astype(np.float32)[None, :, None]
    if b is not None:
        y = y + _np(b).astype(np.float32)[None, :, None]
    return np.maximum(y, 0) if relu else y


# ---- the primitives ----------------------------------------------------------------------------------
def _stats(x: Tensor, rm, rv, momentum: float, eps: float, count=None) -> Tensor:
    """float32 (2, C): mean and 1 / sqrt(biased var + eps); running stats updated in place, and the
    module's ``num_batches_tracked`` (``count``, with running stats only) incremented."""
    C = x.shape[1]
    if count is not None and (x._device.type != "webgpu" or rm is None):
        count.add_(1)   # the cpu device (and a counter without running stats): an op of its own
        count = None
    if x._device.type == "webgpu":
        from ..device import gpu_norm
        st = Tensor._make(gpu_norm.stats(x, rm, rv, momentum, eps, count), (2, C), x.dtype, x.device)
    else:
        st = _cpu_tensor(_np_stats(_np3(x), rm, rv, momentum, eps), (2, C), x)
    for r in (rm, rv, count):
        if r is not None:
            r._bump_version()
    return st


def _apply(x: Tensor, st: Tensor, w, b) -> Tensor:
    if x._device.type == "webgpu":
        from ..device import gpu_norm
        return Tensor._make(gpu_norm.apply(x, st._storage, w, b), x.shape, x.dtype, x.device)
    s = _np(st)
    return _cpu_tensor(_np_apply(_np3(x), s[0], s[1], w, b, False), x.shape, x)


def _backward(gy: Tensor, x: Tensor, st: Tensor, w, need_x: bool) -> tuple:
    """(dx or None, dw, db) of the fused forward, first order, without autograd."""
    C = x.shape[1]
    gy = gy.contiguous()
    if x._device.type == "webgpu":
        from ..device import gpu_norm
        sums = gpu_norm.backward_reduce(gy, x, st._storage)
        dx = None
        if need_x:
            dx = Tensor._make(gpu_norm.backward_apply(gy, x, st._storage, sums, w), x.shape, x.dtype, x.device)
        return dx, Tensor._make(sums[1], (C,), x.dtype, x.device), Tensor._make(sums[0], (C,), x.dtype, x.device)
    g3, x3, s = _np3(gy), _np3(x), _np(st)
    xhat = (x3 - s[0][None, :, None]) * s[1][None, :, None]
    sdy = g3.sum((0, 2), dtype=np.float64).astype(np.float32)
    sdx = (g3 * xhat).sum((0, 2), dtype=np.float64).astype(np.float32)
    dx = None
    if need_x:
        L = np.float32(x3.shape[0] * x3.shape[2])
        scale = s[1] * (_np(w).astype(np.float32) if w is not None else np.float32(1))
        d = scale[None, :, None] * (g3 - sdy[None, :, None] / L - xhat * (sdx[None, :, None] / L))
        dx = _cpu_tensor(d, x.shape, x)
    return dx, _cpu_tensor(sdx, (C,), x), _cpu_tensor(sdy, (C,), x)


def _composite_backward(gy: Tensor, x: Tensor, w, eps: float) -> tuple:
    """The same gradients written with differentiable ops (for create_graph=True): the batch statistics
    are recomputed from x, so that the double backward sees their dependence on x."""
    dims = _dims(x)
    shape = (1, x.shape[1]) + (1,) * (x.dim() - 2)
    mean = x.mean(dims, keepdim=True)
    xc = x - mean
    inv = ((xc * xc).mean(dims, keepdim=True) + eps).rsqrt()
    xhat = xc * inv
    db = gy.sum(dims)
    dw = (gy * xhat).sum(dims)
    g = gy * w.reshape(shape) if w is not None else gy
    dx = inv * (g - g.mean(dims, keepdim=True) - xhat * (g * xhat).mean(dims, keepdim=True))
    return dx, dw, db


def batch_norm_train(x: Tensor, rm, rv, w, b, momentum: float, eps: float, count=None) -> Tensor:
    """Training-mode batch norm of x (N, C, *) with the batch's statistics; rm/rv updated in place, and
    ``count`` (the module's num_batches_tracked) incremented by the same kernel."""
    x = x.contiguous()
    xd = x.detach()
    with autograd.no_grad():
        st = _stats(xd, rm, rv, momentum, eps, count)
        y = _apply(xd, st, w.detach() if w is not None else None, b.detach() if b is not None else None)

    def back(gy):
        if autograd.is_grad_enabled():
            dx, dw, db = _composite_backward(gy, x, w, eps)
        else:
            dx, dw, db = _backward(gy, xd, st, w.detach() if w is not None else None, x.requires_grad)
        return (dx if x.requires_grad else None, dw if w is not None and w.requires_grad else None,
                db if b is not None and b.requires_grad else None)
    autograd.record("NativeBatchNormBackward0", [x, w, b], [y], back, [t for t in (x, w) if t is not None])
    return y


def batch_norm_eval(x: Tensor, rm: Tensor, rv: Tensor, w, b, eps: float) -> Tensor:
    """Evaluation-mode batch norm with the running statistics: one kernel forward."""
    x = x.contiguous()
    xd = x.detach()
    wd = w.detach() if w is not None else None
    bd = b.detach() if b is not None else None
    if x._device.type == "webgpu":
        from ..device import gpu_norm
        y = Tensor._make(gpu_norm.apply_eval(xd, rm, rv, wd, bd, eps), x.shape, x.dtype, x.device)
    else:
        inv = (1.0 / np.sqrt(_np(rv).astype(np.float64) + eps)).astype(np.float32)
        y = _cpu_tensor(_np_apply(_np3(xd), _np(rm).astype(np.float32), inv, wd, bd, False), x.shape, x)
    shape = (1, x.shape[1]) + (1,) * (x.dim() - 2)

    def back(gy):
        dims = _dims(x)
        scale = (rv.detach().reshape(shape) + eps).rsqrt()
        xhat = (x - rm.detach().reshape(shape)) * scale
        dx = gy * (scale * w.reshape(shape) if w is not None else scale) if x.requires_grad else None
        dw = (gy * xhat).sum(dims) if w is not None and w.requires_grad else None
        db = gy.sum(dims) if b is not None and b.requires_grad else None
        return dx, dw, db
    autograd.record("NativeBatchNormBackward0", [x, w, b], [y], back, [t for t in (x, w, rm, rv) if t is not None])
    return y
