"""Order statistics and running extremes: kthvalue, aminmax, cummax, cummin.

kthvalue sorts (the stable sort of scan_sort.py, NaN above +inf, as PyTorch ranks NaN) and reads
position k-1; aminmax is amin and amax of reduce.py with one node; cummax/cummin are a log-step
(Hillis-Steele) scan of (value, index) pairs written with elementwise ops, so they run on every
device: step s combines each position with the one s before it, keeping the later pair when it is
NaN or, when the earlier one is not NaN, when it is >= (cummax) / <= (cummin) the earlier: PyTorch's
CPU rule, so among ties the last index wins and a NaN, once seen, stays. Their gradients are
PyTorch's: the picked element gets the upstream gradient (scatter-add at the indices), aminmax
splits it evenly between tied extremes as amin/amax do.
"""
from __future__ import annotations

import builtins

from .. import _dtype, autograd
from ..tensor import Tensor, _wrap_dim
from . import _return_types as _rt
from ._registry import OpDef, methods, register

__all__ = ["kthvalue", "aminmax", "cummax", "cummin"]

_NAMES = _dtype.SCALAR_NAMES  # PyTorch's ScalarType names (Float, Byte, ...)

# every one of them picks an input element: exact
KTHVALUE = register(OpDef("kthvalue", "sort", ("sort.wgsl", "sort"), None, tol=(0, 0),
                          doc="stable sort (NaN last), the element at rank k", extra={"messages": True}))
AMINMAX = register(OpDef("aminmax", "reduce", None, None, tol=(0, 0), doc="amin and amax in one call",
                         extra={"messages": True}))
CUMMAX = register(OpDef("cummax", "scan", None, None, tol=(0, 0),
                        doc="log-step scan of (value, index): the later pair if NaN or >=", extra={"messages": True}))
CUMMIN = register(OpDef("cummin", "scan", None, None, tol=(0, 0),
                        doc="log-step scan of (value, index): the later pair if NaN or <=", extra={"messages": True}))


def _require(op: str, x) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}(): argument 'input' (position 1) must be Tensor, not {type(x).__name__}")
    return x


def _into(out, values: Tensor, indices: Tensor):
    """Write (values, indices) into a caller's ``out=(values, indices)``."""
    from .elementwise import _out
    if out is None:
        return values, indices
    return _out(values, out[0]), _out(indices, out[1])


def _put_back(x: Tensor, d: int, idx: Tensor):
    """The gradient of picking x[..., idx, ...] along d: the upstream gradient scatter-added at idx."""
    def back(g):
        from .creation import zeros_like
        return (zeros_like(x).scatter_add(d, idx, g),)
    return back


# ---- kthvalue ------------------------------------------------------------------------------------------------
def kthvalue(input: Tensor, k: int, dim: int = -1, keepdim: bool = False, *, out=None):
    """``(values, indices)``: the ``k``-th smallest element along ``dim`` (k counts from 1; NaN ranks above
    every number) and its index. Among equal values PyTorch's CPU kernel (a quickselect) returns an
    unspecified one of their indices; this one returns the stable sort's, so indices agree with PyTorch's
    where the values along ``dim`` are distinct.

    Example::

        >>> torch.kthvalue(torch.tensor([[1., 3., 2.], [5., 4., 0.]]), 2)
        torch.return_types.kthvalue(
        values=tensor([2., 4.]),
        indices=tensor([2, 1]))
    """
    from ._complex_core import refuse_complex
    refuse_complex(input, NotImplementedError, '"kthvalue_cpu" not implemented for \'{}\'')   # an ordering: no meaning for complex values
    from .creation import full, zeros
    x = _require("kthvalue", input)
    if not isinstance(k, int) or isinstance(k, bool):
        raise TypeError(f"kthvalue(): argument 'k' (position 2) must be int, not {type(k).__name__}")
    if x.dtype.name == "bool":
        raise NotImplementedError("\"kthvalue_cpu\" not implemented for 'Bool'")
    d = _wrap_dim(dim, builtins.max(x.dim(), 1), "kthvalue")
    n = x._shape[d] if x.dim() else 1
    if x.dim() and n == 0:
        raise IndexError(f"kthvalue(): Expected reduction dim {d} to have non-zero size.")
    if not 1 <= k <= n:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
    if x.dim() == 0:
        values, idx = x.clone(), zeros((), dtype=_dtype.int64, device=x.device)
        return _rt.kthvalue(_into(out, values, idx))
    shape = list(x._shape)
    shape[d] = 1
    if x.numel() == 0:
        values, idx = x.reshape(shape), zeros(shape, dtype=_dtype.int64, device=x.device)
        if not keepdim:
            values, idx = values.squeeze(d), idx.squeeze(d)
        return _rt.kthvalue(_into(out, values, idx))
    with autograd.no_grad():
        sv, perm = x.detach().sort(d, stable=True)
        pos = full(shape, k - 1, dtype=_dtype.int64, device=x.device)
        values, at = sv.gather(d, pos), perm.gather(d, pos)
        idx = at if keepdim else at.squeeze(d)
        values = values if keepdim else values.squeeze(d)
    if x.dtype.is_floating_point:
        put = _put_back(x, d, at)
        autograd.record("KthvalueBackward0", [x], [values], lambda g: put(g if keepdim else g.unsqueeze(d)), [at])
    return _rt.kthvalue(_into(out, values, idx))


# ---- aminmax -------------------------------------------------------------------------------------------------
def aminmax(input: Tensor, *, dim: int | None = None, keepdim: bool = False, out=None):
    """``(min, max)`` of all elements, or along ``dim``; NaN if there is one. The gradient of each is split
    evenly between tied elements, as for :func:`amin` and :func:`amax`.

    Example::

        >>> torch.aminmax(torch.tensor([[1., 3., 2.], [5., 4., 0.]]), dim=1)
        torch.return_types.aminmax(
        min=tensor([1., 0.]),
        max=tensor([3., 5.]))
    """
    from .reduce import _even_split_back, amax, amin
    x = _require("aminmax", input)
    if dim is None:
        if x.numel() == 0:
            raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the operation has "
                               "no identity.")
        dims = tuple(range(x.dim()))
    else:
        d = _wrap_dim(dim, builtins.max(x.dim(), 1), "aminmax")
        if x.dim() and x._shape[d] == 0:
            raise IndexError(f"aminmax: Expected reduction dim {d} to have non-zero size.")
        dims = (d,) if x.dim() else ()
    with autograd.no_grad():
        base = x.detach()
        if x.numel() == 0:   # an empty tensor reduced along a non-empty dim: empty results
            from .creation import zeros
            shape = ([1 if i in dims else s for i, s in enumerate(x._shape)] if keepdim
                     else [s for i, s in enumerate(x._shape) if i not in dims])
            lo = hi = zeros(shape, dtype=x.dtype, device=x.device)
        elif not dims:
            lo, hi = base.clone(), base.clone()
        else:
            lo, hi = amin(base, dims, keepdim), amax(base, dims, keepdim)
    if x.dtype.is_floating_point and dims:
        back_lo, back_hi = _even_split_back(x, lo, dims, keepdim), _even_split_back(x, hi, dims, keepdim)
        autograd.record("AminmaxBackward0", [x], [lo, hi], lambda g_lo, g_hi: (back_lo(g_lo)[0] + back_hi(g_hi)[0],),
                        [x, lo, hi])
    elif x.dtype.is_floating_point:
        autograd.record("AminmaxBackward0", [x], [lo, hi], lambda g_lo, g_hi: (g_lo + g_hi,))
    return _rt.aminmax(_into(out, lo, hi))


# ---- cummax / cummin -----------------------------------------------------------------------------------------
def _running(op: str, input: Tensor, dim: int, out, later_if):
    from .creation import arange, zeros
    from .elementwise import where
    from .shape import cat
    x = _require(op, input)
    d = _wrap_dim(dim, builtins.max(x.dim(), 1), op)
    if x.dim() == 0:
        return x.clone(), zeros((), dtype=_dtype.int64, device=x.device)
    n = x._shape[d]
    if x.numel() == 0:
        return x.clone(), zeros(x._shape, dtype=_dtype.int64, device=x.device)
    with autograd.no_grad():
        key = x.detach()
        if key.dtype.name == "bool":
            key = key.to(_dtype.int32)
        line = [1] * x.dim()
        line[d] = n
        idx = arange(n, dtype=_dtype.int64, device=x.device).reshape(line).expand(x._shape).clone()
        floating = key.dtype.is_floating_point
        s = 1
        while s < n:   # positions j >= s take the pair s before them when it wins
            pv, pi = key.narrow(d, 0, n - s), idx.narrow(d, 0, n - s)
            cv, ci = key.narrow(d, s, n - s), idx.narrow(d, s, n - s)
            later = later_if(cv, pv)
            if floating:
                later = cv.isnan() | (~pv.isnan() & later)
            key = cat([key.narrow(d, 0, s), where(later, cv, pv)], d)
            idx = cat([idx.narrow(d, 0, s), where(later, ci, pi)], d)
            s *= 2
        values = x.detach().gather(d, idx)
    if x.dtype.is_floating_point:
        autograd.record(f"{op.capitalize()}Backward0", [x], [values], _put_back(x, d, idx), [idx])
    return _into(out, values, idx)


def cummax(input: Tensor, dim: int, *, out=None):
    """``(values, indices)``: the running maximum along ``dim`` and where it was found (the last index
    among equal values; once a NaN appears it stays).

    Example::

        >>> torch.cummax(torch.tensor([1., 3., 2., 3., 5.]), 0)
        torch.return_types.cummax(
        values=tensor([1., 3., 3., 3., 5.]),
        indices=tensor([0, 1, 1, 3, 4]))
    """
    from ._complex_core import refuse_complex
    refuse_complex(input, NotImplementedError, '"cummax_cpu" not implemented for \'{}\'')   # an ordering: no meaning for complex values
    return _rt.cummax(_running("cummax", input, dim, out, lambda cur, prev: cur >= prev))


def cummin(input: Tensor, dim: int, *, out=None):
    """``(values, indices)``: the running minimum along ``dim`` and where it was found (the last index
    among equal values; once a NaN appears it stays).

    Example::

        >>> torch.cummin(torch.tensor([3, 1, 2, 1]), 0)
        torch.return_types.cummin(
        values=tensor([3, 1, 1, 1]),
        indices=tensor([0, 1, 1, 3]))
    """
    from ._complex_core import refuse_complex
    refuse_complex(input, NotImplementedError, '"cummin_cpu" not implemented for \'{}\'')   # an ordering: no meaning for complex values
    return _rt.cummin(_running("cummin", input, dim, out, lambda cur, prev: cur <= prev))


# ---- the public names (bound by borch_webgpu/_bind.py) ------------------------------------------
methods(("kthvalue", kthvalue), ("aminmax", aminmax), ("cummax", cummax), ("cummin", cummin))
