"""Copies with one part replaced: select_scatter, slice_scatter, diagonal_scatter (a view's values
written into a copy), index_copy, index_reduce, put and Tensor.fill_diagonal_.

Each is a copy and one write (ops/indexing.py's ``_put``, or ``memory.assign`` into a view), and each
backward is written with the same ops: the gradient of the replaced part goes to the source."""
from __future__ import annotations

import builtins
import math

from .. import autograd
from ..tensor import Tensor, _wrap_dim
from ._registry import OpDef, methods, register
from .memory import assign

__all__ = ["select_scatter", "slice_scatter", "diagonal_scatter", "as_strided_scatter", "index_copy", "index_reduce", "put",
           "fill_diagonal_"]

for _n, _doc in (("select_scatter", "a copy with one select() slice replaced"),
                 ("slice_scatter", "a copy with one slice replaced"),
                 ("diagonal_scatter", "a copy with one diagonal replaced (also as_strided_scatter's goldens)"),
                 ("index_copy", "a copy with rows at index replaced"),
                 ("put", "a copy with elements at flat indices replaced or added to"),
                 ("fill_diagonal_", "the main diagonal filled in place")):
    register(OpDef(_n, "copy", None, None, tol=(0, 0), doc=_doc, extra={"messages": True}))
INDEX_REDUCE = register(OpDef("index_reduce", "composite", None, None, tol=(1e-6, 1e-6),
                              doc="scatter_reduce with the index repeated over the slices", extra={"messages": True}))


def _view_scatter(name: str, input: Tensor, src: Tensor, view, copy=None) -> Tensor:
    """A copy of ``input`` (``copy(t)``: a contiguous clone by default) with ``view(copy)`` replaced by
    ``src`` (shapes must match exactly)."""
    from .memory import clone
    copy = copy or (lambda t: clone(t.detach()))
    with autograd.no_grad():
        out = copy(input)
        part = view(out)
        if tuple(src._shape) != tuple(part._shape):
            raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = "
                               f"{list(src._shape)}, slice size = {list(part._shape)}")
        assign(part, src.detach())

    def back(g):
        from .creation import zeros
        gv = view(copy(g))
        return _view_scatter(name, g, zeros(gv._shape, dtype=g.dtype, device=g.device), view, copy), gv
    autograd.record(name, [input, src], [out], back)
    return out


def select_scatter(input: Tensor, src: Tensor, dim: int, index: int) -> Tensor:
    """A copy of ``input`` with the slice ``input.select(dim, index)`` replaced by ``src``.

    Example::

        >>> torch.select_scatter(torch.zeros(2, 2), torch.ones(2), 0, 0)
        tensor([[1., 1.],
                [0., 0.]])
    """
    return _view_scatter("SelectScatterBackward0", input, src, lambda t: t.select(dim, index))


def slice_scatter(input: Tensor, src: Tensor, dim: int = 0, start: int | None = None, end: int | None = None,
                  step: int = 1) -> Tensor:
    """A copy of ``input`` with the slice ``start:end:step`` along ``dim`` replaced by ``src``.

    Example::

        >>> torch.slice_scatter(torch.zeros(2, 4), torch.ones(2, 2), 1, 0, 4, 2)
        tensor([[1., 0., 1., 0.],
                [1., 0., 1., 0.]])
    """
    from .views import slice_dim
    if step <= 0:
        raise RuntimeError("slice step must be positive")
    d = _wrap_dim(dim, builtins.max(input.dim(), 1), "slice_scatter")

    def view(t):
        s, e, _ = slice(start, end).indices(t._shape[d])
        return slice_dim(t, d, s, builtins.max(e, s), step)
    return _view_scatter("SliceScatterBackward0", input, src, view)


def diagonal_scatter(input: Tensor, src: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """A copy of ``input`` with ``input.diagonal(offset, dim1, dim2)`` replaced by ``src``.

    Example::

        >>> torch.diagonal_scatter(torch.zeros(3, 3), torch.ones(2), 1)
        tensor([[0., 1., 0.],
                [0., 0., 1.],
                [0., 0., 0.]])
    """
    return _view_scatter("DiagonalScatterBackward0", input, src, lambda t: t.diagonal(offset, dim1, dim2))


def as_strided_scatter(input: Tensor, src: Tensor, size, stride, storage_offset=None) -> Tensor:
    """A copy of ``input`` with ``copy.as_strided(size, stride, storage_offset)`` replaced by ``src``; the
    geometry is counted in the copy's memory, which keeps ``input``'s strides when they are dense (as
    PyTorch's clone does), from offset 0. The gradient of the replaced part goes to ``src``.

    Example::

        >>> torch.as_strided_scatter(torch.zeros(6), torch.ones(2, 2), (2, 2), (1, 2), 1)
        tensor([0., 1., 1., 1., 1., 0.])
    """
    from .creation_more import empty_strided
    order = sorted(range(input.dim()), key=lambda i: -input._stride[i])
    dense = builtins.all(input._stride[order[k]] == math.prod(input._shape[j] for j in order[k + 1:])
                         for k in range(input.dim()))

    def like(t: Tensor) -> Tensor:  # a copy of t (input's shape) laid out as input's clone
        out = empty_strided(t._shape, input._stride, dtype=t.dtype, device=t.device) if dense \
            else t.new_empty(t._shape)
        assign(out, t.detach())
        return out

    geom = (tuple(size), tuple(stride), 0 if storage_offset is None else storage_offset)
    return _view_scatter("AsStridedScatterBackward0", input, src, lambda t: t.as_strided(*geom), like)


def _slice_dim_of(op: str, input: Tensor, dim: int, index: Tensor, source: Tensor) -> int:
    if index.dtype.name != "int64":
        raise RuntimeError(f"{op}(): Expected a long tensor for index, but got {index.dtype.name.capitalize()}")
    if index.dim() > 1:
        raise IndexError(f"{op}(): Index should have dimension 1 or 0 (got {index.dim()})")
    d = _wrap_dim(dim, builtins.max(input.dim(), 1), op.rstrip("_"))
    if input.dim() > 1 or source.dim() > 1:
        if source.dim() != input.dim():
            raise IndexError(f"{op}(): When source and destination are not scalars, their dimensionality must match. "
                             f"Source dimensionality ({source.dim()}), destination dimensionality ({input.dim()})")
        for k in range(input.dim()):
            if k != d and source._shape[k] != input._shape[k]:
                at = k if k < d else k - 1  # PyTorch numbers the dims of the slice (dim removed)
                raise RuntimeError(f"{op}(): Source/destination tensor must have same slice shapes. Destination "
                                   f"slice shape: {input._shape[k]} at dimension {at} and source slice shape: "
                                   f"{source._shape[k]} at dimension {at}.")
    n_src = source._shape[d] if source.dim() else 1
    if index.numel() != n_src:
        raise IndexError(f"{op}(): Number of indices ({index.numel()}) should be equal to source.size(dim) ({n_src})")
    return d


def index_copy(input: Tensor, dim: int, index: Tensor, source: Tensor) -> Tensor:
    """A copy of ``input`` whose slices at ``index`` along ``dim`` are ``source``'s slices, in order.

    Example::

        >>> torch.zeros(3, 2).index_copy(0, torch.tensor([2, 0]), torch.tensor([[1., 2.], [3., 4.]]))
        tensor([[3., 4.],
                [0., 0.],
                [1., 2.]])
    """
    from .indexing import _put, _strides_for
    d = _slice_dim_of("index_copy_", input, dim, index, source)
    if source.dtype is not input.dtype:
        raise RuntimeError(f"index_copy_(): self and source expected to have the same dtype, but got (self) "
                           f"{input.dtype.name.capitalize()} and (source) {source.dtype.name.capitalize()}")
    from .memory import clone
    with autograd.no_grad():
        out = clone(input.detach())
        if index.numel():
            tgt = out if out.dim() else out.reshape(1)
            s2 = source.detach() if source.dim() else source.detach().reshape(1)
            i2 = index.reshape(-1)
            _put(tgt, d, i2, _strides_for(s2._shape, d, i2), s2, s2._shape, False, IndexError,
                 f"index_copy_(): index {{index}} is out of bounds for dimension {d} with size {{size}}",
                 op="index_copy")
    autograd.record("IndexCopyBackward0", [input, None, source], [out],
                    lambda g: (g.index_fill(d, index, 0), None,
                               g.index_select(d, index).reshape(source._shape)))
    return out


def index_reduce(input: Tensor, dim: int, index: Tensor, source: Tensor, reduce: str, *,
                 include_self: bool = True) -> Tensor:
    """A copy of ``input`` with ``source``'s slices reduced into the slices at ``index`` along ``dim``:
    ``reduce`` is ``'prod'``, ``'mean'``, ``'amax'`` or ``'amin'``; ``include_self=False`` leaves the old
    values out of the slices written to.

    Example::

        >>> x = torch.ones(3, 2)
        >>> x.index_reduce(0, torch.tensor([0, 0, 2]), torch.tensor([[2., 3.], [4., 5.], [6., 7.]]), "prod")
        tensor([[ 8., 15.],
                [ 1.,  1.],
                [ 6.,  7.]])
    """
    import warnings
    from .scatter_reduce import scatter_reduce
    warnings.warn("index_reduce() is in beta and the API may change at any time.", UserWarning, stacklevel=2)
    if reduce not in ("prod", "mean", "amax", "amin"):
        raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got {reduce}.")
    d = _slice_dim_of("index_reduce_", input, dim, index, source)
    if input.dim() == 0:
        return index_reduce(input.reshape(1), 0, index.reshape(-1), source.reshape(-1), reduce,
                            include_self=include_self).reshape(())
    src = source if source.dim() else source.reshape(1)
    view = [1] * src.dim()
    view[d] = -1
    idx = index.reshape(view).expand(src._shape).contiguous()
    return scatter_reduce(input, d, idx, src, reduce, include_self=include_self)


def put(input: Tensor, index: Tensor, source: Tensor, accumulate: bool = False) -> Tensor:
    """A copy of ``input`` with ``source``'s elements written (or with ``accumulate=True`` added) at the
    positions ``index`` of the row-major flattened tensor (negative positions count from the end).

    Example::

        >>> torch.zeros(2, 2).put(torch.tensor([1, -1]), torch.tensor([5., 6.]))
        tensor([[0., 5.],
                [0., 6.]])
    """
    from .elementwise import where
    from .indexing import _put
    if index.dtype.name != "int64":
        raise RuntimeError(f"put_(): Expected a long tensor for index, but got {index.dtype.name.capitalize()}")
    if source.dtype is not input.dtype:
        raise RuntimeError(f"put_(): self and source expected to have the same dtype, but got self.dtype = "
                           f"{input.dtype.name.capitalize()} and source.dtype = {source.dtype.name.capitalize()}")
    if index.numel() != source.numel():
        raise IndexError(f"put_(): Expected source and index to have the same number of elements, but got "
                         f"source.numel() = {source.numel()}, index.numel() = {index.numel()}")
    n = input.numel()
    from .memory import clone
    with autograd.no_grad():
        out = clone(input.detach())
        if index.numel():
            if n == 0:
                raise IndexError("put_(): Tried to indexing on an empty tensor")
            flat = out.view(-1)
            i2 = index.reshape(-1)
            i2 = where(i2 < 0, i2 + n, i2)
            _put(flat, 0, i2, i2._stride, source.detach().reshape(-1), (i2.numel(),), accumulate, IndexError,
                 lambda i, size: f"out of range: tried to access index {i} on a tensor of {size} elements.",
                 op="put")

    def back(g):
        from .creation import zeros
        taken = g.take(index).reshape(source._shape)
        if accumulate:
            return g, None, taken
        return put(g, index, zeros(source._shape, dtype=g.dtype, device=g.device)), None, taken
    autograd.record("PutBackward0", [input, None, source], [out], back)
    return out


def fill_diagonal_(self: Tensor, fill_value, wrap: bool = False) -> Tensor:
    """Fill the main diagonal in place (``self[i, i, ...] = fill_value``); all dims must be equal for
    more than 2 dims. For a tall matrix, ``wrap=True`` starts the diagonal again after every ``cols + 1``
    rows, as PyTorch does.

    Example::

        >>> torch.zeros(3, 3).fill_diagonal_(5.)
        tensor([[5., 0., 0.],
                [0., 5., 0.],
                [0., 0., 5.]])
    """
    from .creation import full, tensor
    from .memory import has_overlap, inplace
    shape = self._shape
    if len(shape) < 2:
        raise RuntimeError("dimensions must larger than 1")
    if len(shape) > 2 and len(set(shape)) != 1:
        raise RuntimeError("all dimensions of input must be of equal length")
    numel = self.numel()
    if len(shape) == 2:
        step = shape[1] + 1
        stop = numel if wrap and shape[0] > shape[1] else builtins.min(shape) * step
        pos = list(range(0, builtins.min(stop, numel), step))
    else:
        step = builtins.sum(int(numel // shape[0] ** (k + 1)) for k in range(len(shape)))
        pos = [i * step for i in range(shape[0])]
    if not pos:
        return self
    if has_overlap(self):
        # an expanded tensor: each diagonal element written where it lives, as PyTorch's strided fill
        for p in pos:
            coords = []
            for n in reversed(shape):
                coords.append(p % n)
                p //= n
            self[tuple(reversed(coords))] = fill_value
        return self
    idx = tensor(pos, device=self.device)
    vals = full((len(pos),), fill_value, dtype=self.dtype, device=self.device)
    return inplace("fill_diagonal_", lambda x: put(x, idx, vals), self)


# ---- the public names (bound by borch_webgpu/_bind.py) ------------------------------------------
methods(("select_scatter", select_scatter), ("slice_scatter", slice_scatter), ("diagonal_scatter", diagonal_scatter),
        ("as_strided_scatter", as_strided_scatter))
methods(("index_copy", index_copy), ("index_reduce", index_reduce), ("put", put), inplace=True)
methods(("fill_diagonal_", fill_diagonal_), torch=False)
