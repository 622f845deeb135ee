"""The complex forms of ops whose real code would drop the imaginary part (the ops hand complex input
here): prod, cumsum, var / std (real results), sgn, random complex normals and uniforms. numpy on the
host, gradients by PyTorch's convention (ops/_complex_core.py)."""
from __future__ import annotations

import math

import numpy as np

from ..tensor import Tensor, _wrap_dim
from . import _complex_core as cc

__all__ = ["prod", "cumsum", "var", "sgn", "random"]


def _others_product(v: np.ndarray, axis: int) -> np.ndarray:
    """For each element, the product of the others along axis (exclusive products from both sides:
    exact with zeros, no division)."""
    ones = np.ones_like(np.take(v, [0], axis=axis))
    left = np.concatenate([ones, np.cumprod(v, axis=axis)], axis=axis)
    left = np.take(left, np.arange(v.shape[axis]), axis=axis)
    rv = np.flip(v, axis)
    right = np.concatenate([ones, np.cumprod(rv, axis=axis)], axis=axis)
    right = np.flip(np.take(right, np.arange(v.shape[axis]), axis=axis), axis)
    return left * right


def prod(x: Tensor, dim=None, keepdim: bool = False) -> Tensor:
    """The product of complex x over dim (all elements when None)."""
    v = cc.values(x)
    if dim is None:
        flat = v.reshape(-1)
        out = cc.make(np.prod(flat), x.dtype, x.device)
        others = _others_product(flat, 0).reshape(v.shape) if flat.size else flat.reshape(v.shape)
        cc.record("ProdBackward0", [x], [out], lambda g: (np.broadcast_to(g, v.shape) * np.conj(others),))
        return out
    d = _wrap_dim(dim, x.dim(), "prod")
    r = np.prod(v, axis=d, keepdims=keepdim)
    out = cc.make(r, x.dtype, x.device)
    others = _others_product(v, d) if v.shape[d] else v
    cc.record("ProdBackward1", [x], [out],
              lambda g: ((g if keepdim else np.expand_dims(g, d)) * np.conj(others),))
    return out


def cumsum(x: Tensor, dim: int) -> Tensor:
    """The cumulative sum of complex x along dim; its gradient is the reversed cumulative sum."""
    d = _wrap_dim(dim, x.dim(), "cumsum")
    out = cc.make(np.cumsum(cc.values(x), axis=d), x.dtype, x.device)
    cc.record("CumsumBackward0", [x], [out], lambda g: (np.flip(np.cumsum(np.flip(g, d), axis=d), d),))
    return out


def var(x: Tensor, dim, unbiased, keepdim: bool, correction, std: bool) -> Tensor:
    """var / std of complex x: a real result, the variance of the real parts plus that of the imaginary
    parts (PyTorch's definition, E|z - mean|^2 with the correction), differentiable through .real / .imag."""
    r = x.real.var(dim, unbiased, keepdim, correction=correction) + \
        x.imag.var(dim, unbiased, keepdim, correction=correction)   # methods: reduce.py sits above
    return r.sqrt() if std else r


def sgn(x: Tensor) -> Tensor:
    """z / |z| (0 at 0) for complex x; the gradient flows through the angle only."""
    z = cc.values(x)
    with np.errstate(all="ignore"):
        a = np.abs(z)
        s = np.where(a == 0, 0, z / np.where(a == 0, 1, a))
    out = cc.make(s, x.dtype, x.device)

    def back(g):
        with np.errstate(all="ignore"):
            return (np.where(a == 0, 0, np.real(np.conj(g) * 1j * s) * 1j * s / np.where(a == 0, 1, a)),)
    cc.record("SgnBackward0", [x], [out], back)
    return out


def random(kind: str, fn, shape, dtype, device, generator, requires_grad: bool) -> Tensor:
    """randn / rand with a complex dtype, as PyTorch draws them: real and imaginary parts independent, each
    N(0, 1/2) for randn (so E|z|^2 = 1) and U[0, 1) for rand, from the real generator fn (random.py's)."""
    from .complex import complex as make_complex
    rd = dtype.to_real()
    re = fn(*shape, generator=generator, dtype=rd, device=device)
    im = fn(*shape, generator=generator, dtype=rd, device=device)
    if kind == "randn":
        re, im = re * (1 / math.sqrt(2.0)), im * (1 / math.sqrt(2.0))
    out = make_complex(re, im)
    return out.requires_grad_(requires_grad) if requires_grad else out


def logsumexp(x: Tensor, dims, keepdim: bool) -> Tensor:
    """log(sum(exp(z))) of complex x over dims, shifted by the largest real part; the gradient is
    g * conj(softmax)."""
    v = cc.values(x)
    dims = tuple(dims)
    m = np.max(v.real, axis=dims, keepdims=True) if v.size else np.zeros([1] * v.ndim)
    m = np.where(np.isfinite(m), m, 0)
    with np.errstate(all="ignore"):
        lse = np.log(np.sum(np.exp(v - m), axis=dims, keepdims=True)) + m
    out = cc.make(lse if keepdim else np.squeeze(lse, axis=dims), x.dtype, x.device)
    with np.errstate(all="ignore"):
        soft = np.exp(v - lse)
    cc.record("LogsumexpBackward0", [x], [out],
              lambda g: ((g if keepdim else np.expand_dims(g, dims)) * np.conj(soft),))
    return out


def cumprod(x: Tensor, d: int) -> Tensor:
    """The cumulative product of complex x along dim d. Gradient: input i gets sum over j >= i of
    g_j * conj(prod of x_k for k <= j, k != i), computed without division (exact with zeros)."""
    v = cc.values(x)
    out = cc.make(np.cumprod(v, axis=d), x.dtype, x.device)

    def back(g):
        a, gm = np.moveaxis(v, d, -1), np.moveaxis(g, d, -1)
        n = a.shape[-1]
        res = np.zeros_like(a)
        for i in range(n):
            others = a.copy()
            others[..., i] = 1
            partial = np.cumprod(others, axis=-1)   # prod of x_k, k <= j, k != i
            res[..., i] = np.sum(gm[..., i:] * np.conj(partial[..., i:]), axis=-1)
        return (np.moveaxis(res, -1, d),)
    cc.record("CumprodBackward0", [x], [out], back)
    return out
