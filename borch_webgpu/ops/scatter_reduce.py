"""scatter_reduce: ``src`` reduced into the positions its ``index`` names along ``dim``.

sum and mean are scatter_adds (mean divides by the counts, which are scatter_adds of ones). prod, amax
and amin sort the (target, value) pairs by target (a stable sort, so each target's values keep
PyTorch's order) and reduce each run of equal targets with a segmented scan: log2(n) steps of
``where(same target, op(value, earlier value), value)``; the last element of each run is then written
to its target with one put (no atomics). Products are therefore associated in another order than
PyTorch's sequential one (a few ulps); max and min are exact, NaN propagating as in PyTorch. The
gradients are PyTorch's formulas (FunctionsManual.cpp scatter_reduce_backward) written with
differentiable ops; the second derivative of prod where more than one zero meets at a target (which
PyTorch refuses with a DelayedError) is not refused here.
"""
from __future__ import annotations

import builtins

from .. import _dtype, autograd
from ..tensor import Tensor, _wrap_dim
from ._registry import OpDef, methods, register

__all__ = ["scatter_reduce"]

# sums accumulate in the order the GPU's atomics run, products in a tree: a few ulps off PyTorch's order
SCATTER_REDUCE = register(OpDef("scatter_reduce", "index", ("index.wgsl", "put"), None, tol=(1e-5, 1e-5),
                                doc="sum/mean: scatter_add; prod/amax/amin: sort by target and segmented scan",
                                extra={"messages": True}))

_REDUCE = {"sum": "sum", "prod": "prod", "mean": "mean", "amax": "amax", "amin": "amin", "max": "amax",
           "min": "amin"}


def _check_scatter(x: Tensor, d: int, index: Tensor, src: Tensor) -> None:
    if index.dtype.category != 1:
        raise RuntimeError("scatter(): Expected dtype int32/int64 for index")
    if src.dtype is not x.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    if index.dim() != x.dim() and not (index.dim() <= 1 and x.dim() <= 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    if index.dim() != src.dim() and not (index.dim() <= 1 and src.dim() <= 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")
    ish, xsh, ssh = (list(t._shape) or [1] for t in (index, x, src))
    for k in range(index.dim()):
        if ish[k] > ssh[k] or (k != d and ish[k] > xsh[k]):
            raise RuntimeError(f"Expected index {list(index._shape)} to be no larger than self {list(x._shape)} "
                               f"apart from dimension {d} and to be no larger size than src {list(src._shape)}")


def _targets(x: Tensor, d: int, index: Tensor) -> Tensor:
    """The flat position in x (contiguous) that each element of index points at (bad indices raise)."""
    from .creation import arange
    from .indexing import _take
    size = x._shape[d]
    idx = index.reshape(-1)
    at = _take(arange(size, device=x.device), 0, idx, idx._stride, idx._shape, RuntimeError,
               f"index {{index}} is out of bounds for dimension {d} with size {{size}}").reshape(index._shape)
    strides = [1] * x.dim()
    for k in range(x.dim() - 2, -1, -1):
        strides[k] = strides[k + 1] * x._shape[k + 1]
    key = at * strides[d]
    for k in range(x.dim()):
        if k != d:
            shape = [1] * x.dim()
            shape[k] = index._shape[k]
            key = key + arange(index._shape[k], device=x.device).reshape(shape) * strides[k]
    return key.reshape(-1)


def _segmented(x: Tensor, d: int, index: Tensor, src: Tensor, how: str, include_self: bool) -> Tensor:
    """prod / amax / amin of src into x by sorting (target, value) pairs and a segmented scan (no grad)."""
    from .creation import arange, ones, zeros
    from .elementwise import maximum, minimum, where
    from .shape import cat
    flat = x.contiguous().reshape(-1)
    n = flat.numel()
    keys, vals = _targets(x.contiguous(), d, index), src.reshape(-1)
    if include_self:
        keys = cat([arange(n, device=x.device), keys])
        vals = cat([flat, vals])
    order = keys.argsort(stable=True)
    ks, vs = keys.index_select(0, order), vals.index_select(0, order)
    combine = {"prod": lambda a, b: a * b, "amax": maximum, "amin": minimum}[how]
    step, total = 1, ks.numel()
    while step < total:
        same = ks[step:] == ks[:-step]
        vs = cat([vs[:step], where(same, combine(vs[step:], vs[:-step]), vs[step:])])
        step *= 2
    last = cat([ks[1:] != ks[:-1], ones(1, dtype=_dtype.bool_, device=x.device)])
    spare = zeros(1, dtype=x.dtype, device=x.device)
    out = cat([flat, spare]).scatter(0, where(last, ks, n), vs)[:n]
    return out.reshape(x._shape)


def _scatter_reduce_back(g, x, d, index, src, how, include_self, result):
    from .creation import zeros_like
    from .elementwise import where
    if how == "prod":
        masked_self = x.masked_fill(x == 0, 1)
        grad_self = g * scatter_reduce(masked_self, d, index, src, "prod", include_self=include_self) / masked_self
        src_zero = src == 0
        zeros_at = zeros_like(x).scatter_add(d, index, src_zero.to(x.dtype)).gather(d, index)
        single = src_zero & (zeros_at == 1)
        masked_src_result = scatter_reduce(x, d, index, src.masked_fill(single, 1), "prod", include_self=include_self)
        grad_src = where(single, (g * masked_src_result).gather(d, index),
                         (g * result).gather(d, index) / src.masked_fill(src_zero, 1))
    else:
        value = result.gather(d, index)
        self_is = x == result
        src_is = src == value
        spread = g / self_is.to(x.dtype).scatter_add(d, index, src_is.to(x.dtype))
        grad_self = self_is * spread
        grad_src = src_is * spread.gather(d, index)
    if not include_self:
        grad_self = grad_self.scatter(d, index, 0)
    return grad_self, None, grad_src


def scatter_reduce(input: Tensor, dim: int, index: Tensor, src: Tensor, reduce: str, *,
                   include_self: bool = True) -> Tensor:
    """A copy of ``input`` where each ``src`` element is reduced into the position its ``index`` names
    along ``dim``: ``reduce`` is ``'sum'``, ``'prod'``, ``'mean'``, ``'amax'`` or ``'amin'``; with
    ``include_self=False`` the positions written to forget their old value.

    Example::

        >>> x = torch.tensor([1., 2., 3.])
        >>> x.scatter_reduce(0, torch.tensor([0, 0, 2]), torch.tensor([5., 7., 9.]), "amax")
        tensor([7., 2., 9.])
    """
    if not isinstance(src, Tensor):
        raise TypeError(f"scatter_reduce(): argument 'src' must be Tensor, not {type(src).__name__}")
    how = _REDUCE.get(reduce)
    if how is None:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")
    d = _wrap_dim(dim, builtins.max(input.dim(), 1), "scatter_reduce")
    _check_scatter(input, d, index, src)
    if how == "mean" and input.dtype.name == "bool":
        raise NotImplementedError("\"scatter_gather_tensor_cpu_reduce_mean\" not implemented for 'Bool'")
    if input.dim() == 0:
        return scatter_reduce(input.reshape(1), 0, index.reshape(-1), src.reshape(-1), reduce,
                              include_self=include_self).reshape(())
    if index.numel() == 0:
        return input.clone()
    if src._shape != index._shape:  # only src's leading part (index's shape) is used
        src = src[tuple(slice(0, s) for s in index._shape)]
    if how in ("sum", "mean"):
        return _sum_mean(input, d, index, src, how, include_self)
    with autograd.no_grad():
        out = _segmented(input.detach(), d, index, src.detach(), how, include_self)
    autograd.record("ScatterReduceBackward0", [input, None, src], [out],
                    lambda g: _scatter_reduce_back(g, input, d, index, src, how, include_self, out), [input, src, out])
    return out


def _sum_mean(x: Tensor, d: int, index: Tensor, src: Tensor, how: str, include_self: bool) -> Tensor:
    from .creation import ones, ones_like
    from .elementwise import where
    base = x if include_self else x.scatter(d, index, 0)
    total = base.scatter_add(d, index, src)
    if how == "sum":
        return total
    with autograd.no_grad():
        start = ones_like(x) if include_self else ones_like(x).scatter(d, index, 0)
        count = start.scatter_add(d, index, ones(index._shape, dtype=x.dtype, device=x.device))
        count = where(count == 0, 1, count)
    if x.dtype.is_floating_point:
        return total / count
    return total.div(count, rounding_mode="floor")


# ---- the public names (bound by borch_webgpu/_bind.py) ------------------------------------------
methods(("scatter_reduce", scatter_reduce), inplace=True)
