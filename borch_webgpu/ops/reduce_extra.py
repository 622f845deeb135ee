"""Reductions that skip NaN or pick an element: nansum, nanmean, median, mode, quantile, nanquantile,
and the scan logcumsumexp.

nansum and nanmean are sums of ``where(isnan(x), 0, x)``. median, mode and the quantiles sort (the
stable sort of scan_sort.py, NaN last) and read the elements they need with gather, so their
gradients are gather's: the picked element gets it, as in PyTorch (median of all elements splits it
evenly between equal values, as PyTorch does). Ties resolve as PyTorch's CPU kernels do: median
takes the lowest index among equal values (its comparator breaks ties by index), mode the smallest
most frequent value and its last index. logcumsumexp is a scan (wgsl/scan.wgsl logaddexp_f) with
PyTorch's log-space gradient.
"""
from __future__ import annotations

import builtins
import numbers

import numpy as np

from .. import _dtype, autograd
from ..tensor import Tensor, _wrap_dim
from ._checks import device_check
from . import _return_types as _rt
from ._registry import OpDef, methods, register

__all__ = ["nansum", "nanmean", "median", "mode", "quantile", "nanquantile", "logcumsumexp"]

_NAMES = _dtype.SCALAR_NAMES  # PyTorch's ScalarType names (Float, Byte, ...)

# sums: the sum kernel's accumulation; picks: exact; quantiles: PyTorch's float32 lerp
NANSUM = register(OpDef("nansum", "reduce", None, None, tol=(1e-5, 1e-5), doc="sum with NaN as zero",
                        extra={"messages": True}))
NANMEAN = register(OpDef("nanmean", "reduce", None, None, tol=(1e-5, 1e-6), doc="nansum / count of non-NaN",
                         extra={"messages": True}))
MEDIAN = register(OpDef("median", "sort", ("sort.wgsl", "sort"), None, tol=(0, 0),
                        doc="stable sort, the lower middle element (NaN if any)", extra={"messages": True}))
MODE = register(OpDef("mode", "sort", ("sort.wgsl", "sort"), None, tol=(0, 0),
                      doc="stable sort, run lengths, the first longest run", extra={"messages": True}))
QUANTILE = register(OpDef("quantile", "sort", ("sort.wgsl", "sort"), None, tol=(1e-6, 1e-6),
                          doc="stable sort, gather at the ranks, lerp", extra={"messages": True}))
NANQUANTILE = register(OpDef("nanquantile", "sort", ("sort.wgsl", "sort"), None, tol=(1e-6, 1e-6),
                             doc="quantile over the non-NaN values", extra={"messages": True}))
# PyTorch's CPU kernel carries the running value in double; the WebGPU scan carries float32, whose
# rounding and log1p/exp errors add up along a row: measured on SwiftShader against the goldens, at most
# 3.8e-6 absolute (1.5e-7 relative) for rows of 300 with values up to 25; the margin is for GPUs whose
# exp is coarser (WGSL allows 3 + 2|x| ulp)
LOGCUMSUMEXP = register(OpDef("logcumsumexp", "scan", ("scan.wgsl", "logaddexp_f"),
                              lambda a, axis: np.logaddexp.accumulate(a.astype(np.float64), axis=axis).astype(a.dtype),
                              dtype_rule="scan", tol=(2e-6, 2e-6), doc="inclusive scan of log(exp(a) + exp(b))",
                              extra={"messages": True, "grad_tol": (1e-5, 1e-5)}))


def _require(op: str, x) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}(): argument 'input' (position 1) must be Tensor, not {type(x).__name__}")
    return x


# ---- NaN-skipping sums --------------------------------------------------------------------------------------
def nansum(input: Tensor, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """``sum`` with NaN counted as zero (integers and bools sum to int64).

    Example::

        >>> torch.nansum(torch.tensor([1., float('nan'), 2.]))
        tensor(3.)
    """
    from .elementwise import where
    from .reduce import _expand_back, reduce_dims
    x = _require("nansum", input)
    if not x.dtype.is_floating_point:
        return x.sum(dim, keepdim, dtype=dtype)
    with autograd.no_grad():
        out = where(x.isnan(), 0.0, x).sum(dim, keepdim, dtype=dtype)
    dims = reduce_dims("nansum", x.dim(), dim)
    # PyTorch's nansum_backward: g * not-NaN, a product (an infinite g gives NaN at NaN inputs, as there)
    autograd.record("NansumBackward0", [x], [out],
                    lambda g: (_expand_back(g, x._shape, dims, keepdim) * x.isnan().logical_not(),), [x])
    return out


def nanmean(input: Tensor, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """The mean of the non-NaN elements (over ``dim``); NaN where all are NaN.

    Example::

        >>> torch.nanmean(torch.tensor([1., float('nan'), 2.]))
        tensor(1.5000)
    """
    x = _require("nanmean", input)
    if not x.dtype.is_floating_point:
        raise RuntimeError(f"nanmean(): expected input to have floating point or complex dtype but got "
                           f"{_NAMES[x.dtype.name]}")
    factor = x.isnan().logical_not().sum(dim, keepdim)
    return nansum(x, dim, keepdim, dtype=dtype) / factor


# ---- median / mode -------------------------------------------------------------------------------------------
def _check_nonempty(op: str, x: Tensor, d: int) -> None:
    if x.dim() and x._shape[d] == 0:
        raise IndexError(f"{op}(): Expected reduction dim {d} to have non-zero size.")


def median(input: Tensor, dim=None, keepdim: bool = False):
    """The median (the lower of the two middle values for an even count; NaN if there is one): of all
    elements, or ``(values, indices)`` along ``dim``.

    Example::

        >>> torch.median(torch.tensor([3., 1., 2., 4.]))
        tensor(2.)
    """
    from ._complex_core import refuse_complex
    refuse_complex(input, NotImplementedError, '"median_cpu" not implemented for \'{}\'')   # an ordering: no meaning for complex values
    from .creation import full, zeros
    from .reduce import _even_split_back
    x = _require("median", input)
    if x.dtype.name == "bool":
        raise NotImplementedError("\"median_cpu\" not implemented for 'Bool'")
    if dim is None:
        if x.numel() == 0:
            return full((), float("nan"), dtype=x.dtype, device=x.device)
        with autograd.no_grad():
            value = _median_along(x.detach().reshape(-1), 0)[0].reshape(())
        dims = tuple(range(x.dim()))
        autograd.record("MedianBackward0", [x], [value], _even_split_back(x, value, dims, False), [x, value])
        return value
    d = _wrap_dim(dim, builtins.max(x.dim(), 1), "median")
    if x.dim() == 0:
        return _rt.median((x.clone(), zeros((), dtype=_dtype.int64, device=x.device)))
    _check_nonempty("median", x, d)
    if x.numel() == 0:
        shape = list(x._shape)
        shape[d] = 1
        v, i = x.reshape(shape), zeros(shape, dtype=_dtype.int64, device=x.device)
        return _rt.median((v, i) if keepdim else (v.squeeze(d), i.squeeze(d)))
    with autograd.no_grad():
        _, idx = _median_along(x.detach(), d)
    values = x.gather(d, idx)
    if not keepdim:
        values, idx = values.squeeze(d), idx.squeeze(d)
    return _rt.median((values, idx))


def _median_along(x: Tensor, d: int):
    """(values, indices) of the lower median along d, keepdim; the first NaN where there is one."""
    from .elementwise import where
    n = x._shape[d]
    sv, perm = x.sort(d, stable=True)
    at = (n - 1) // 2
    if x.dtype.is_floating_point:
        nans = x.isnan().sum(d, keepdim=True)
        pos = where(nans > 0, n - nans, at)
    else:
        shape = list(x._shape)
        shape[d] = 1
        from .creation import full
        pos = full(shape, at, dtype=_dtype.int64, device=x.device)
    return sv.gather(d, pos), perm.gather(d, pos)


def mode(input: Tensor, dim: int = -1, keepdim: bool = False):
    """``(values, indices)``: the most frequent value along ``dim`` (the smallest of equally frequent ones)
    and the index of its last occurrence; NaN values are all distinct.

    Example::

        >>> values, indices = torch.mode(torch.tensor([1, 2, 2, 3, 3, 0]))
        >>> values, indices
        (tensor(2), tensor(2))
    """
    from ._complex_core import refuse_complex
    refuse_complex(input, NotImplementedError, '"mode_cpu" not implemented for \'{}\'')   # an ordering: no meaning for complex values
    from .creation import ones, zeros
    from .scan_sort import cumsum
    from .shape import cat
    x = _require("mode", input)
    d = _wrap_dim(dim, builtins.max(x.dim(), 1), "mode")
    if x.dim() == 0:
        return _rt.mode((x.clone(), zeros((), dtype=_dtype.int64, device=x.device)))
    _check_nonempty("mode", x, d)
    kept = [s for i, s in enumerate(x._shape) if i != d]
    rows = x.movedim(d, -1).reshape(-1, x._shape[d])
    m, n = rows._shape
    if m == 0:
        v = zeros(kept, dtype=x.dtype, device=x.device)
        i = zeros(kept, dtype=_dtype.int64, device=x.device)
    else:
        with autograd.no_grad():
            sv, perm = rows.detach().sort(1, stable=True)
            start = cat([ones((m, 1), dtype=_dtype.bool_, device=x.device), sv[:, 1:] != sv[:, :-1]], 1)
            run = cumsum(start, 1) - 1
            length = zeros((m, n), dtype=_dtype.int64, device=x.device).scatter_add(
                1, run, ones((m, n), dtype=_dtype.int64, device=x.device))
            best = length.argmax(1, keepdim=True)
            last = cumsum(length, 1).gather(1, best) - 1
            i = perm.gather(1, last)
        v = rows.gather(1, i).reshape(kept)
        i = i.reshape(kept)
    if keepdim:
        v, i = v.unsqueeze(d), i.unsqueeze(d)
    return _rt.mode((v, i))


# ---- quantiles -------------------------------------------------------------------------------------------------
_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile(op: str, x: Tensor, q, dim, keepdim: bool, interpolation: str, ignore_nan: bool) -> Tensor:
    from .creation import full_like, tensor
    from .elementwise import where
    x = _require(op, x)
    if not isinstance(q, Tensor):
        if not isinstance(q, numbers.Real):
            raise TypeError(f"{op}() received an invalid combination of arguments: q must be a float or a Tensor, "
                            f"not {type(q).__name__}")
        q = builtins.float(q)
        if not 0 <= q <= 1:
            raise RuntimeError(f"quantile() q must be in the range [0, 1] but got {q:g}")
        q = tensor(q, dtype=x.dtype if x.dtype.is_floating_point else _dtype.float32, device=x.device)
    if interpolation not in _INTERPOLATIONS:
        raise RuntimeError(f"quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, "
                           f"but got {interpolation}")
    if x.numel() == 0:
        raise RuntimeError("quantile() input tensor must be non-empty")
    if q.dim() > 1:
        raise RuntimeError("quantile() q must be a scalar or 1D tensor")
    if not x.dtype.is_floating_point or x.dtype.name == "float16":
        raise RuntimeError("quantile() input tensor must be either float or double dtype")
    if q.dtype is not x.dtype:
        raise RuntimeError("quantile() q tensor must be same dtype as the input tensor")
    if q.device != x.device:
        raise RuntimeError("quantile() q tensor must be on the same device as the input tensor")
    device_check((q >= 0) & (q <= 1), RuntimeError, "quantile() q values must be in the range [0, 1]")
    rest = []
    if dim is not None:
        d = _wrap_dim(dim, builtins.max(x.dim(), 1), op)
        if x.dim():
            rest = list(x._shape)
            if keepdim:
                rest[d] = 1
            else:
                del rest[d]
        srt = x.unsqueeze(-1).transpose(d, -1) if x.dim() else x.reshape(1)
    else:
        if keepdim:
            rest = [1] * x.dim()
        srt = x.flatten()
    n = srt._shape[-1]
    srt = srt.sort(-1).values.reshape(rest + [n])
    if ignore_nan:
        ranks = q * (srt.isnan().logical_not().sum(-1, keepdim=True) - 1)
        ranks = where(ranks < 0, 0.0, ranks)
    else:
        ranks = where(srt.isnan().any(-1, keepdim=True), builtins.float(n - 1), q * (n - 1))
    if interpolation == "lower":
        ranks = ranks.floor()
    elif interpolation == "higher":
        ranks = ranks.ceil()
    elif interpolation == "nearest":
        ranks = ranks.round()
    below = ranks.to(_dtype.int64)
    values = srt.gather(-1, below)
    if interpolation in ("linear", "midpoint"):
        weights = full_like(ranks, 0.5) if interpolation == "midpoint" else ranks - below
        values = values.lerp(srt.gather(-1, ranks.ceil().to(_dtype.int64)), weights)
    if q.dim() == 0:
        return values.squeeze(-1)
    return values.unsqueeze(0).transpose(0, -1).squeeze(-1)


def quantile(input: Tensor, q, dim: int | None = None, keepdim: bool = False, *, interpolation: str = "linear",
             out=None) -> Tensor:
    """The ``q``-th quantiles (``q`` a number or a 1-D tensor in [0, 1]) of all elements or along ``dim``,
    interpolating between the two nearest sorted values as ``interpolation`` says (``'linear'``, ``'lower'``,
    ``'higher'``, ``'midpoint'``, ``'nearest'``); NaN where a NaN is present. A 1-D ``q`` adds a leading dim.

    Example::

        >>> torch.quantile(torch.tensor([1., 7., 3., 4.]), 0.5)
        tensor(3.5000)
    """
    r = _quantile("quantile", input, q, dim, keepdim, interpolation, False)
    return _maybe_out(r, out)


def nanquantile(input: Tensor, q, dim: int | None = None, keepdim: bool = False, *, interpolation: str = "linear",
                out=None) -> Tensor:
    """``quantile`` over the non-NaN values only (NaN where all are NaN).

    Example::

        >>> torch.nanquantile(torch.tensor([1., float('nan'), 3.]), 0.5)
        tensor(2.)
    """
    r = _quantile("nanquantile", input, q, dim, keepdim, interpolation, True)
    return _maybe_out(r, out)


def _maybe_out(r: Tensor, out) -> Tensor:
    if out is None:
        return r
    from .elementwise import _out
    return _out(r, out)


# ---- logcumsumexp ------------------------------------------------------------------------------------------------
def logcumsumexp(input: Tensor, dim: int, *, out=None) -> Tensor:
    """``log(cumsum(exp(input)))`` along ``dim``, computed without overflow (each step adds in log space).

    Example::

        >>> torch.logcumsumexp(torch.tensor([0., 0., 0.]), 0)
        tensor([0.0000, 0.6931, 1.0986])
    """
    from .scan_sort import _no_half_on_gpu, _scan
    x = _require("logcumsumexp", input)
    if not x.dtype.is_floating_point:
        raise NotImplementedError(f"\"logcumsumexp_out_cpu\" not implemented for '{_NAMES[x.dtype.name]}'")
    d = _wrap_dim(dim, builtins.max(x.dim(), 1), "logcumsumexp")
    _no_half_on_gpu("logcumsumexp", x)
    r = _scan(LOGCUMSUMEXP, x, d, x.dtype, x.dtype)
    autograd.record("LogcumsumexpBackward0", [x], [r], lambda g: (_logcumsumexp_back(g, x, r, d),), [x, r])
    return _maybe_out(r, out)


def _logcumsumexp_back(g: Tensor, x: Tensor, out: Tensor, d: int) -> Tensor:
    """PyTorch's logcumsumexp_backward: the positive and negative parts of g through a reversed
    logcumsumexp in log space (no overflow), written with differentiable ops."""
    from .elementwise import where
    if g.dim() == 0 or g.numel() == 0:
        return g
    lowest = -3.4028234663852886e38

    def reverse(t):
        return logcumsumexp(t.flip(d), d).flip(d)
    log_abs = g.abs().log()
    pos = where(g > 0, log_abs, lowest)
    neg = where(g < 0, log_abs, lowest)
    return (reverse(pos - out) + x).exp() - (reverse(neg - out) + x).exp()


# ---- the public names (bound by borch_webgpu/_bind.py) ------------------------------------------
methods(("nansum", nansum), ("nanmean", nanmean), ("median", median), ("mode", mode), ("quantile", quantile),
        ("nanquantile", nanquantile), ("logcumsumexp", logcumsumexp))
