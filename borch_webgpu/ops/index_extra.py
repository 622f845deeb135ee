"""More indexing ops, as composites of the indexing primitives (gather, scatter, index_select, the
checked take of indexing.py) and of the sort and search kernels: repeat_interleave, unravel_index,
take_along_dim, masked_scatter, index_fill, scatter_reduce, plus ravel and type_as.

scatter_reduce's sum and mean are scatter_adds. Its prod, amax and amin sort the (target, value)
pairs by target (a stable sort, so each target's values keep PyTorch's order) and reduce each run of
equal targets with a segmented scan (log2(n) steps of ``where(same target, op(value, earlier value),
value)``), whose last element per run is written to the target: no atomics beyond the put. Products
are therefore associated in another order than PyTorch's sequential one (a few ulps); max and min
are exact, NaN propagating as in PyTorch. Their gradients are PyTorch's formulas
(FunctionsManual.cpp scatter_reduce_backward), written with differentiable ops.
"""
from __future__ import annotations

import builtins
import itertools
import operator

from .. import _dtype, autograd
from ..tensor import Tensor, _wrap_dim
from ._checks import device_check, host_values
from ._registry import OpDef, api, methods, register

__all__ = ["repeat_interleave", "unravel_index", "take_along_dim", "masked_scatter", "index_fill", "scatter_reduce",
           "ravel"]

_NAMES = {"float32": "Float", "float16": "Half", "int64": "Long", "int32": "Int", "bool": "Bool"}

REPEAT_INTERLEAVE = register(OpDef("repeat_interleave", "index", ("search.wgsl", "searchsorted"), None, tol=(0, 0),
                                   doc="index_select at positions found by searching the cumsum of repeats",
                                   extra={"messages": True}))
UNRAVEL_INDEX = register(OpDef("unravel_index", "composite", None, None, tol=(0, 0),
                               doc="floor_divide and remainder by the strides of shape", extra={"messages": True}))
TAKE_ALONG_DIM = register(OpDef("take_along_dim", "index", ("index.wgsl", "take"), None, tol=(0, 0),
                                doc="gather after broadcasting; indices wrap modulo the size, as in PyTorch",
                                extra={"messages": True}))
MASKED_SCATTER = register(OpDef("masked_scatter", "index", ("index.wgsl", "take"), None, tol=(0, 0),
                                doc="where(mask, source gathered at cumsum(mask) - 1, input)",
                                extra={"messages": True}))
INDEX_FILL = register(OpDef("index_fill", "index", ("index.wgsl", "take"), None, tol=(0, 0),
                            doc="where(mask along dim, value, input)", extra={"messages": True}))
# sums accumulate in the order the GPU's atomics run, products in a tree: a few ulps off PyTorch's order
SCATTER_REDUCE = register(OpDef("scatter_reduce", "index", ("index.wgsl", "put"), None, tol=(1e-5, 1e-5),
                                doc="sum/mean: scatter_add; prod/amax/amin: sort by target and segmented scan",
                                extra={"messages": True}))
RAVEL = register(OpDef("ravel", "view", None, None, tol=(0, 0), doc="reshape(-1)", extra={"messages": True}))
TYPE_AS = register(OpDef("type_as", "copy", None, None, tol=(0, 0), doc="to(other.dtype)", extra={"messages": True}))


# ---- repeat_interleave ------------------------------------------------------------------------------------
def _repeat_positions(reps: Tensor, output_size) -> Tensor:
    """int64 positions: i repeated reps[i] times (reps 1-D integer, non-negative)."""
    from .creation import arange, zeros
    from .scan_sort import cumsum
    from .search import searchsorted
    if reps.numel() == 0:
        total = 0 if output_size is None else builtins.int(output_size)
        if total:
            raise RuntimeError("allocated size does not match required size")
        return zeros(0, dtype=_dtype.int64, device=reps.device)
    cs = cumsum(reps, 0)
    if output_size is None:
        from .shape import stack
        total, low = (builtins.int(v) for v in host_values(stack([cs[-1], reps.amin().to(_dtype.int64)]),
                                                           "torch.repeat_interleave()"))
        if low < 0:
            raise RuntimeError("repeats can not be negative")
    else:
        total = builtins.int(output_size)
        device_check(reps >= 0, RuntimeError, "repeats can not be negative")
        device_check(cs[-1] == total, RuntimeError, "allocated size does not match required size")
    return searchsorted(cs, arange(total, device=reps.device), right=True)


def _repeats_tensor(reps: Tensor) -> Tensor:
    if reps.dtype.category != 1:
        raise NotImplementedError(f"\"repeat_interleave_cpu\" not implemented for '{_NAMES[reps.dtype.name]}'")
    if reps.dim() > 1:
        raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
    return reps


def repeat_interleave(input: Tensor, repeats=None, dim: int | None = None, *, output_size: int | None = None):
    """Each element (or slice along ``dim``) of ``input`` repeated ``repeats`` times in place: an int, or a
    tensor with a count per slice; without ``dim`` the input is flattened. ``repeat_interleave(repeats)``
    alone gives the indices ``0, 0, 1, ...`` it would use. With a tensor of repeats the output size
    depends on the data: it is read back from the GPU unless ``output_size`` is given.

    Example::

        >>> torch.repeat_interleave(torch.tensor([1, 2]), torch.tensor([2, 1]))
        tensor([1, 1, 2])
    """
    if repeats is None:
        reps = _repeats_tensor(input)
        if reps.dim() != 1:
            raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
        return _repeat_positions(reps, output_size).to(reps.dtype)
    x = input
    if dim is None:
        x, d = x.reshape(-1), 0
    else:
        d = _wrap_dim(dim, builtins.max(x.dim(), 1), "repeat_interleave")
        if x.dim() == 0:
            x = x.reshape(1)
    n = x._shape[d]
    if isinstance(repeats, Tensor):
        reps = _repeats_tensor(repeats)
        if reps.numel() == 1 and n != 1:
            reps = reps.reshape(1).expand(n)
        elif reps.dim() == 0 or reps._shape[0] != n:
            raise RuntimeError(f"repeats must have the same size as input along dim, but got repeats.size(0) = "
                               f"{reps.numel()} and input.size({d}) = {n}")
        return x.index_select(d, _repeat_positions(reps.reshape(-1), output_size))
    r = builtins.int(repeats)
    if r < 0:
        raise RuntimeError("Repeats must be non-negative")
    if output_size is not None and builtins.int(output_size) != n * r:
        raise RuntimeError("allocated size does not match required size")
    shape = list(x._shape)
    wide = shape[:d + 1] + [r] + shape[d + 1:]
    shape[d] = n * r
    return x.unsqueeze(d + 1).expand(wide).reshape(shape)


# ---- unravel_index / take_along_dim / ravel / type_as -------------------------------------------------------
def unravel_index(indices: Tensor, shape):
    """The coordinates in a tensor of ``shape`` of each flat index in ``indices``: a tuple of int64 tensors
    (PyTorch's arithmetic: indices outside the shape wrap around, negative ones count from the end).

    Example::

        >>> torch.unravel_index(torch.tensor([5, 11]), (3, 4))
        (tensor([1, 2]), tensor([1, 3]))
    """
    from .creation import tensor
    if not isinstance(indices, Tensor):
        raise TypeError(f"unravel_index(): argument 'indices' must be Tensor, not {type(indices).__name__}")
    if indices.dtype.category != 1:
        raise TypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype}")
    if isinstance(shape, builtins.int) and not isinstance(shape, builtins.bool):
        shape = [shape]
    elif isinstance(shape, (list, tuple)):
        for s in shape:
            if not isinstance(s, builtins.int) or isinstance(s, builtins.bool):
                raise TypeError(f"expected 'shape' sequence to only contain ints, but got {type(s)}")
        shape = list(shape)
    else:
        raise TypeError(f"expected 'shape' to be int or sequence of ints, but got {type(shape)}")
    if any(s < 0 for s in shape):
        raise ValueError(f"'shape' cannot have negative values, but got {tuple(shape)}")
    coefs = list(reversed(list(itertools.accumulate(reversed(shape[1:] + [1]), operator.mul))))
    dev = indices.device
    r = indices.unsqueeze(-1).floor_divide(tensor(coefs, dtype=_dtype.int64, device=dev)) % \
        tensor(shape, dtype=_dtype.int64, device=dev)
    return tuple(r.unbind(-1))


def take_along_dim(input: Tensor, indices: Tensor, dim: int | None = None) -> Tensor:
    """``input`` read at ``indices`` along ``dim`` (the two broadcast against each other except along
    ``dim``, where indices wrap modulo the size as in PyTorch); without ``dim`` both are flattened.

    Example::

        >>> x = torch.tensor([[10, 30, 20], [60, 40, 50]])
        >>> torch.take_along_dim(x, x.argmax(dim=1, keepdim=True), dim=1)
        tensor([[30],
                [60]])
    """
    from ._shapes import _broadcast
    if dim is None:
        return input.reshape(-1).gather(0, indices.reshape(-1))
    if indices.dim() != input.dim():
        raise RuntimeError(f"torch.take_along_dim(): input and indices should have the same number of dimensions, "
                           f"but got {input.dim()} dimensions for input, and {indices.dim()} dimensions for indices")
    if indices.dtype.name != "int64":
        raise RuntimeError(f"torch.take_along_dim(): dtype of indices should be Long but got "
                           f"{_NAMES[indices.dtype.name]}")
    d = _wrap_dim(dim, builtins.max(input.dim(), 1), "take_along_dim")
    if input.dim() == 0:
        return input.reshape(1).gather(0, indices.reshape(1) % 1).reshape(())
    si = list(input._shape)
    si[d] = indices._shape[d]
    idx = indices.expand(_broadcast("take_along_dim", [si, indices._shape]))
    sx = list(indices._shape)
    sx[d] = input._shape[d]
    x = input.expand(_broadcast("take_along_dim", [sx, input._shape]))
    return x.gather(d, idx % builtins.max(x._shape[d], 1))


def ravel(input: Tensor) -> Tensor:
    """``input`` flattened to 1-D: a view when its memory allows, else a copy.

    Example::

        >>> torch.ravel(torch.tensor([[1, 2], [3, 4]]))
        tensor([1, 2, 3, 4])
    """
    return input.reshape(-1)


def type_as(self: Tensor, other: Tensor) -> Tensor:
    """This tensor converted to ``other``'s dtype (and device); itself when they match already.

    Example::

        >>> torch.tensor([1, 2]).type_as(torch.tensor([0.5]))
        tensor([1., 2.])
    """
    return self.to(device=other.device, dtype=other.dtype)


# ---- masked_scatter / index_fill ---------------------------------------------------------------------------
def masked_scatter(input: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    """``input`` with the elements where ``mask`` is True replaced, in row-major order, by consecutive
    elements of ``source`` (``input`` and ``mask`` broadcast); ``source`` needs at least as many elements as
    there are True values (checked on the device on WebGPU: the error comes at the next read).

    Example::

        >>> torch.zeros(4).masked_scatter(torch.tensor([True, False, True, False]), torch.tensor([1., 2.]))
        tensor([1., 0., 2., 0.])
    """
    from ._shapes import _broadcast
    from .elementwise import where
    from .scan_sort import cumsum
    if mask.dtype.name != "bool":
        raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with dtype "
                           f"{_NAMES[mask.dtype.name]}")
    if source.dtype is not input.dtype:
        raise RuntimeError(f"masked_scatter: expected self and source to have same dtypes but got"
                           f"{_NAMES[input.dtype.name]} and {_NAMES[source.dtype.name]}")
    shape = _broadcast("masked_scatter", [mask._shape, input._shape])
    x, m = input.expand(shape), mask.expand(shape)
    flat = m.reshape(-1)
    src = source.reshape(-1)
    ns = src.numel()
    if flat.numel() == 0:
        return x.clone()
    with autograd.no_grad():
        pos = cumsum(flat, 0) - 1
        device_check(pos[-1] < ns, RuntimeError, "Number of elements of source < number of ones in mask")
        if ns == 0:
            return x.clone()
        pos = where(flat, pos, 0).clamp(max=ns - 1)
    return where(m, src.gather(0, pos).reshape(shape), x)


def index_fill(input: Tensor, dim: int, index: Tensor, value) -> Tensor:
    """``input`` with ``value`` (a number or a 0-d tensor) written at the positions ``index`` along ``dim``
    (negative positions count from the end).

    Example::

        >>> torch.zeros(2, 3).index_fill(1, torch.tensor([0, 2]), -1.)
        tensor([[-1.,  0., -1.],
                [-1.,  0., -1.]])
    """
    from .creation import arange, ones, zeros
    from .elementwise import where
    from .indexing import _take
    if index.dtype.name != "int64":
        raise IndexError("index_fill_(): Expected dtype int64 for index.")
    if index.dim() > 1:
        raise RuntimeError("Index has to be a vector/scalar")
    if isinstance(value, Tensor):
        if value.dim() != 0:
            raise RuntimeError(f"index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                               f"{value.dim()} dimension(s).")
        value = value.to(input.dtype)
    else:
        value = builtins.float(value) if input.dtype.is_floating_point else (
            builtins.bool(value) if input.dtype.name == "bool" else builtins.int(value))
    d = _wrap_dim(dim, builtins.max(input.dim(), 1), "index_fill")
    size = input._shape[d] if input.dim() else 1
    idx = index.reshape(-1)
    with autograd.no_grad():
        at = _take(arange(size, device=input.device), 0, idx, idx._stride, idx._shape, IndexError,
                   f"index {{index}} is out of bounds for dimension {d} with size {{size}}", negative=True)
        hit = zeros(size, dtype=_dtype.int32, device=input.device).index_add(
            0, at, ones(at.numel(), dtype=_dtype.int32, device=input.device)) > 0
        view = [1] * input.dim()
        if view:
            view[d] = size
        hit = hit.reshape(view)
    return where(hit, value, input)


# ---- scatter_reduce ------------------------------------------------------------------------------------------
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
api("repeat_interleave", repeat_interleave)
methods(("unravel_index", unravel_index), tensor=False)
methods(("take_along_dim", take_along_dim), ("ravel", ravel))
methods(("masked_scatter", masked_scatter), ("index_fill", index_fill), ("scatter_reduce", scatter_reduce),
        inplace=True)
api("type_as", method=type_as)
