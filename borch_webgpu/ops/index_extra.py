"""More indexing ops, as composites of the indexing primitives (gather, scatter, index_select, the
checked take of indexing.py) and of the search kernel: repeat_interleave, unravel_index, take_along_dim,
masked_scatter, index_fill, plus ravel and type_as (scatter_reduce is in scatter_reduce.py).
"""
from __future__ import annotations

import builtins
import itertools
import operator

from .. import _dtype, autograd
from ..tensor import Tensor, _wrap_dim
from ._checks import device_check, host_values
from ._registry import OpDef, api, methods, register

__all__ = ["repeat_interleave", "unravel_index", "take_along_dim", "masked_scatter", "index_fill", "ravel"]

_NAMES = _dtype.SCALAR_NAMES  # PyTorch's ScalarType names (Float, Byte, ...)

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


# ---- the public names (bound by borch_webgpu/_bind.py) ------------------------------------------
api("repeat_interleave", repeat_interleave)
methods(("unravel_index", unravel_index), tensor=False)
methods(("take_along_dim", take_along_dim), ("ravel", ravel))
methods(("masked_scatter", masked_scatter), ("index_fill", index_fill), inplace=True)
api("type_as", method=type_as)
