"""unique and unique_consecutive, built on the stable sort, cumsum and the indexing kernels.

Runs of equal values (after a stable sort, for ``unique``) start where a value differs from the one
before it; NaN differs from everything, itself included, so every NaN is its own value, as in
PyTorch. The run number of each element (a cumsum of the starts) gives the inverse indices, an
accumulating put of ones the counts. The number of distinct values depends on the data, so it is read
back from the GPU (one value), as PyTorch does on CUDA; everything else stays on the device. With
``dim``, slices are compared whole and sorted lexicographically by one stable sort per column, last
column first.
"""
from __future__ import annotations

import builtins

from .. import _dtype, autograd
from ..tensor import Tensor, _wrap_dim
from ._checks import host_int
from ._int64_host import on_host_when_held
from ._registry import OpDef, methods, register

__all__ = ["unique", "unique_consecutive"]

# values are moved, positions and counts found: exact
UNIQUE = register(OpDef("unique", "sort", ("sort.wgsl", "sort"), None, tol=(0, 0),
                        doc="stable sort, run starts, cumsum; the count is read back", extra={"messages": True}))
UNIQUE_CONSECUTIVE = register(OpDef("unique_consecutive", "sort", None, None, tol=(0, 0),
                                    doc="run starts and cumsum; the count is read back", extra={"messages": True}))


def _result(values, inverse, counts, return_inverse: bool, return_counts: bool):
    if not return_inverse and not return_counts:
        return values
    out = [values]
    if return_inverse:
        out.append(inverse)
    if return_counts:
        out.append(counts)
    return tuple(out)


def _runs(start: Tensor, what: str):
    """(run number of each element, number of runs) for a 1-D bool tensor of run starts."""
    from .scan_sort import cumsum
    g = cumsum(start, 0) - 1
    return g, host_int(g[-1], what) + 1


def _first_of_runs(start: Tensor, g: Tensor, k: int, src: Tensor) -> Tensor:
    """src at the start of each run: a put at the run number (later elements of a run go to a spare slot)."""
    from .creation import zeros
    from .elementwise import where
    slots = where(start, g, k)
    return zeros(k + 1, dtype=src.dtype, device=src.device).scatter(0, slots, src)[:k]


def _counts(g: Tensor, k: int) -> Tensor:
    from .creation import ones, zeros
    return zeros(k, dtype=_dtype.int64, device=g.device).index_add(0, g, ones(g.numel(), dtype=_dtype.int64,
                                                                            device=g.device))


def _starts(rows: Tensor) -> Tensor:
    """True where an element (a row, for 2-D) differs from the one before it; the first is a start."""
    from .creation import ones
    from .shape import cat
    ne = rows[1:] != rows[:-1]
    if rows.dim() == 2:
        ne = ne.any(1)
    return cat([ones(1, dtype=_dtype.bool_, device=rows.device), ne])


def _unique_flat(op: str, x: Tensor, sort: bool, return_inverse: bool, return_counts: bool):
    from .creation import empty, zeros
    flat = x.reshape(-1)
    n = flat.numel()
    if n == 0:
        return _result(flat.clone(), zeros(x._shape, dtype=_dtype.int64, device=x.device),
                       zeros(0, dtype=_dtype.int64, device=x.device), return_inverse, return_counts)
    if sort:
        sv, perm = flat.sort(stable=True)
    else:
        sv, perm = flat, None
    start = _starts(sv)
    g, k = _runs(start, f"torch.{op}()")
    values = _first_of_runs(start, g, k, sv)
    inverse = counts = None
    if return_inverse:
        inverse = g if perm is None else empty(n, dtype=_dtype.int64, device=x.device).scatter(0, perm, g)
        inverse = inverse.reshape(x._shape)
    if return_counts:
        counts = _counts(g, k)
    return _result(values, inverse, counts, return_inverse, return_counts)


def _unique_dim(op: str, x: Tensor, dim, sort: bool, return_inverse: bool, return_counts: bool):
    from .creation import arange, empty, zeros
    d = _wrap_dim(dim, x.dim(), op)
    if x.dim() == 0:
        x = x.reshape(1)
    n = x._shape[d]
    rest = [s for i, s in enumerate(x._shape) if i != d]
    width = 1
    for s in rest:
        width *= s
    if n > 0 and width == 0:
        raise RuntimeError("There are 0 sized dimensions, and they aren't selected, so unique cannot be applied")
    if n == 0:
        return _result(x.clone(), zeros(0, dtype=_dtype.int64, device=x.device),
                       zeros(0, dtype=_dtype.int64, device=x.device), return_inverse, return_counts)
    rows = x.movedim(d, 0).reshape(n, width)
    order = None
    if sort:  # lexicographic: one stable sort per column, the least significant first
        order = arange(n, device=x.device)
        for c in range(width - 1, -1, -1):
            keys = rows.select(1, c).index_select(0, order)
            order = order.index_select(0, keys.argsort(stable=True))
        rows = rows.index_select(0, order)
    start = _starts(rows)
    g, k = _runs(start, f"torch.{op}()")
    first = _first_of_runs(start, g, k, arange(n, device=x.device))
    values = rows.index_select(0, first).reshape([k] + rest).movedim(0, d)
    inverse = counts = None
    if return_inverse:
        inverse = g if order is None else empty(n, dtype=_dtype.int64, device=x.device).scatter(0, order, g)
    if return_counts:
        counts = _counts(g, k)
    return _result(values, inverse, counts, return_inverse, return_counts)


def _require(op: str, x) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}(): argument 'input' (position 1) must be Tensor, not {type(x).__name__}")
    return x


@on_host_when_held
def unique(input: Tensor, sorted: bool = True, return_inverse: bool = False,  # noqa: A002 - torch's name
           return_counts: bool = False, dim: int | None = None):
    """The distinct values of ``input`` in ascending order (of the flattened tensor, or the distinct
    slices along ``dim``); with ``return_inverse`` also where each element went, with ``return_counts``
    how often each value occurs. ``sorted=False`` gives the sorted result too (as PyTorch's CPU kernel
    does). NaN values are all distinct. The number of values is read back from the GPU on WebGPU.

    Example::

        >>> torch.unique(torch.tensor([3, 1, 3, 2]), return_counts=True)
        (tensor([1, 2, 3]), tensor([1, 1, 2]))
    """
    from ._complex_core import refuse_complex
    refuse_complex(input, NotImplementedError, '"unique" not implemented for \'{}\'')   # an ordering: no meaning for complex values
    x = _require("unique", input)
    with autograd.no_grad():
        if dim is None:
            return _unique_flat("unique", x.detach(), True, builtins.bool(return_inverse),
                                builtins.bool(return_counts))
        return _unique_dim("unique", x.detach(), dim, True, builtins.bool(return_inverse),
                           builtins.bool(return_counts))


@on_host_when_held
def unique_consecutive(input: Tensor, return_inverse: bool = False, return_counts: bool = False,
                       dim: int | None = None):
    """``input`` with each run of equal consecutive values (or slices along ``dim``) kept once; with
    ``return_inverse`` the run of each element, with ``return_counts`` the length of each run. The number
    of runs is read back from the GPU on WebGPU.

    Example::

        >>> torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 3, 1]))
        tensor([1, 2, 3, 1])
    """
    from ._complex_core import refuse_complex
    refuse_complex(input, NotImplementedError, '"unique_consecutive" not implemented for \'{}\'')   # an ordering: no meaning for complex values
    x = _require("unique_consecutive", input)
    with autograd.no_grad():
        if dim is None:
            return _unique_flat("unique_consecutive", x.detach(), False, builtins.bool(return_inverse),
                                builtins.bool(return_counts))
        return _unique_dim("unique_consecutive", x.detach(), dim, False, builtins.bool(return_inverse),
                           builtins.bool(return_counts))


# ---- the public names (bound by borch_webgpu/_bind.py) ------------------------------------------
methods(("unique", unique), ("unique_consecutive", unique_consecutive))
