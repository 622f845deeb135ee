"""More of PyTorch's shape ops, written with the views and copies of views.py and shape.py:
atleast_1d/2d/3d, broadcast_to/broadcast_tensors, column_stack/row_stack/dstack, diff, rot90, block_diag, combinations, Tensor.unfold, diagflat.

Views stay views (broadcast_to, unfold; the splits are ops/splits.py's), so writes through them reach the base, as in PyTorch."""
from __future__ import annotations

import builtins
import itertools

from .. import autograd
from ..tensor import Tensor, _wrap_dim
from ._registry import OpDef, api, methods, register
from .shape import cat, flip, hstack, vstack
from .views import expand, make_view, narrow, _record_view

__all__ = ["atleast_1d", "atleast_2d", "atleast_3d", "broadcast_to", "broadcast_tensors", "column_stack", "row_stack", "dstack", "diff", "rot90",
           "block_diag", "combinations", "unfold", "diagflat"]

for _n, _doc in (("atleast_1d", "views with leading size-1 dims"), ("broadcast_to", "an expand view"),
                 ("broadcast_tensors", "expand views to the broadcast shape"),
                 ("column_stack", "columns joined by cat"), ("dstack", "joined along dim 2 by cat"),
                 ("rot90", "flip and transpose"), ("block_diag", "blocks copied onto a zero matrix"),
                 ("combinations", "index_select of the combinations' positions"),
                 ("Tensor.unfold", "a strided view of sliding windows"), ("diagflat", "diag of the flattened input")):
    register(OpDef(_n, "view" if "view" in _doc else "copy", None, None, tol=(0, 0), doc=_doc,
                   extra={"messages": True}))
DIFF = register(OpDef("diff", "composite", None, None, tol=(1e-6, 1e-6), doc="differences of neighbouring slices",
                      extra={"messages": True}))


def _tensors(op: str, tensors) -> list[Tensor]:
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    for t in tensors:
        if not isinstance(t, Tensor):
            raise TypeError(f"{op}() received an invalid combination of arguments - got ({type(t).__name__}), but "
                            "expected one of:\n * (Tensor input)\n * (tuple of Tensors tensors)\n")
    return list(tensors)


def _atleast(op: str, ndim: int, tensors):
    single = len(tensors) == 1 and isinstance(tensors[0], Tensor)
    out = []
    for t in _tensors(op, tensors):
        if t.dim() < ndim:
            shape = [1] * ndim if t.dim() == 0 else [1, t._shape[0], 1][:ndim] if t.dim() == 1 else [*t._shape, 1]
            t = t.reshape(shape)
        out.append(t)
    return out[0] if single else tuple(out)


def atleast_1d(*tensors):
    """The tensors (or one tensor) viewed with at least one dim: a 0-d tensor becomes shape ``(1,)``.

    Example::

        >>> torch.atleast_1d(torch.tensor(3.))
        tensor([3.])
    """
    return _atleast("atleast_1d", 1, tensors)


def atleast_2d(*tensors):
    """The tensors viewed with at least two dims: 0-d becomes ``(1, 1)``, 1-D ``(n,)`` becomes ``(1, n)``.

    Example::

        >>> torch.atleast_2d(torch.tensor([1, 2])).shape
        torch.Size([1, 2])
    """
    return _atleast("atleast_2d", 2, tensors)


def atleast_3d(*tensors):
    """The tensors viewed with at least three dims: ``(n,)`` becomes ``(1, n, 1)``, ``(m, n)`` becomes
    ``(m, n, 1)``.

    Example::

        >>> torch.atleast_3d(torch.ones(2, 3)).shape
        torch.Size([2, 3, 1])
    """
    return _atleast("atleast_3d", 3, tensors)


def broadcast_to(input: Tensor, size) -> Tensor:
    """A view of ``input`` expanded to ``size`` (``expand`` under NumPy's name; -1 keeps a size).

    Example::

        >>> torch.broadcast_to(torch.tensor([1, 2]), (2, 2))
        tensor([[1, 2],
                [1, 2]])
    """
    return expand(input, tuple(size))


def broadcast_tensors(*tensors):
    """The tensors expanded (as views) to their common broadcast shape.

    Example::

        >>> a, b = torch.broadcast_tensors(torch.tensor([[1], [2]]), torch.tensor([3, 4, 5]))
        >>> a.shape, b.shape
        (torch.Size([2, 3]), torch.Size([2, 3]))
    """
    from ._shapes import _broadcast
    ts = _tensors("broadcast_tensors", tensors)
    shape = _broadcast("broadcast_tensors", [t._shape for t in ts])
    return tuple(expand(t, shape) for t in ts)


def _stack_list(op: str, tensors) -> list[Tensor]:
    ts = list(tensors)
    if not ts:
        raise RuntimeError(f"{op} expects a non-empty TensorList")
    return ts


def column_stack(tensors) -> Tensor:
    """The tensors joined as columns: 0-d and 1-D tensors become ``(n, 1)`` columns, then ``hstack``.

    Example::

        >>> torch.column_stack([torch.tensor([1, 2]), torch.tensor([3, 4])])
        tensor([[1, 3],
                [2, 4]])
    """
    ts = [t.reshape(t.numel(), 1) if t.dim() <= 1 else t for t in _stack_list("column_stack", tensors)]
    return hstack(ts)


def row_stack(tensors) -> Tensor:
    """``vstack`` under its older name: the tensors stacked row-wise along dim 0.

    Example::

        >>> torch.row_stack([torch.tensor([1, 2]), torch.tensor([3, 4])])
        tensor([[1, 2],
                [3, 4]])
    """
    return vstack(_stack_list("vstack", tensors))


def dstack(tensors) -> Tensor:
    """The tensors joined depth-wise along dim 2 (each made at least 3-D first, as ``atleast_3d``).

    Example::

        >>> torch.dstack([torch.tensor([1, 2]), torch.tensor([3, 4])])
        tensor([[[1, 3],
                 [2, 4]]])
    """
    ts = _stack_list("dstack", tensors)
    return cat(list(_atleast("dstack", 3, (ts,))), 2)


def diff(input: Tensor, n: int = 1, dim: int = -1, prepend: Tensor | None = None,
         append: Tensor | None = None) -> Tensor:
    """The ``n``-th forward difference along ``dim`` (``out[i] = input[i + 1] - input[i]``), after
    joining ``prepend`` and ``append`` to the ends; bool tensors give ``!=`` instead.

    Example::

        >>> torch.diff(torch.tensor([1, 3, 6, 10]))
        tensor([2, 3, 4])
        >>> torch.diff(torch.tensor([1., 3., 6.]), prepend=torch.tensor([0.]), n=2)
        tensor([1., 1.])
    """
    if input.dim() == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    d = _wrap_dim(dim, input.dim(), "diff")
    parts = [t for t in (prepend, input, append) if t is not None]
    for t in parts:
        if t is not input and t.dim() != input.dim():
            raise RuntimeError("diff expects prepend or append to be the same dimension as input")
    x = cat(parts, d) if len(parts) > 1 else input
    for _ in range(n):
        m = x._shape[d]
        if m == 0:
            break
        hi, lo = narrow(x, d, 1, m - 1), narrow(x, d, 0, m - 1)
        x = hi != lo if x.dtype.name == "bool" else hi - lo
    return x


def rot90(input: Tensor, k: int = 1, dims=(0, 1)) -> Tensor:
    """A copy rotated by 90° ``k`` times in the plane of ``dims`` (from the first dim towards the second).

    Example::

        >>> torch.rot90(torch.tensor([[1, 2], [3, 4]]))
        tensor([[2, 4],
                [1, 3]])
    """
    dims = list(dims)
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    n = input.dim()
    if n < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {n}")
    a, b = dims
    if a == b or (a - b) % n == 0:
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {a} and dim1 = {b}")
    a, b = _wrap_dim(a, n, "rot90"), _wrap_dim(b, n, "rot90")
    k = k % 4
    if k == 1:
        return flip(input, [b]).transpose(a, b)
    if k == 2:
        return flip(input, [a, b])
    if k == 3:
        return flip(input, [a]).transpose(a, b)
    return input.clone()


def block_diag(*tensors) -> Tensor:
    """A block-diagonal matrix of the tensors (0-d and 1-D ones count as ``(1, 1)`` and ``(1, n)`` blocks),
    zeros elsewhere, in the tensors' promoted dtype.

    Example::

        >>> torch.block_diag(torch.tensor([[1, 2]]), torch.tensor([[3], [4]]))
        tensor([[1, 2, 0],
                [0, 0, 3],
                [0, 0, 4]])
    """
    from .creation import zeros
    from .elementwise import promote
    from .memory import assign
    ts = list(tensors)
    for i, t in enumerate(ts):
        if t.dim() > 2:
            raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {i} has "
                               f"{t.dim()} dimensions")
    ts = [t.reshape(1, -1) if t.dim() < 2 else t for t in ts]
    if not ts:
        return zeros(1, 0)
    dt = promote(ts)
    rows = builtins.sum(t._shape[0] for t in ts)
    cols = builtins.sum(t._shape[1] for t in ts)
    out = zeros(rows, cols, dtype=dt, device=ts[0].device)
    r = c = 0
    spots = []
    for t in ts:
        h, w = t._shape
        if h and w:
            assign(out[r:r + h, c:c + w], t.detach())
        spots.append((r, c, h, w))
        r, c = r + h, c + w
    autograd.record("BlockDiagBackward0", ts, [out],
                    lambda g: tuple(g[r0:r0 + h0, c0:c0 + w0] for r0, c0, h0, w0 in spots))
    return out


def combinations(input: Tensor, r: int = 2, with_replacement: bool = False) -> Tensor:
    """The length-``r`` combinations of a 1-D tensor's elements, one per row (Python's
    ``itertools.combinations``, or ``combinations_with_replacement``).

    Example::

        >>> torch.combinations(torch.tensor([1, 2, 3]))
        tensor([[1, 2],
                [1, 3],
                [2, 3]])
    """
    from .creation import tensor
    if input.dim() != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(input._shape)}")
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return input.new_empty(0)
    pick = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    pos = list(pick(range(input._shape[0]), r))
    if not pos:
        return input.new_empty(0, r)
    idx = tensor(pos, device=input.device).reshape(-1)
    return input.index_select(0, idx).reshape(len(pos), r)


def unfold(input: Tensor, dimension: int, size: int, step: int) -> Tensor:
    """A view of all the windows of ``size`` elements along ``dimension``, ``step`` apart: that dim
    becomes the number of windows and a new last dim of ``size`` is added.

    Example::

        >>> torch.arange(6).unfold(0, 3, 2)
        tensor([[0, 1, 2],
                [2, 3, 4]])
    """
    n = input.dim()
    d = _wrap_dim(dimension, n, "unfold") if n else 0
    have = input._shape[d] if n else 1
    if size > have:
        raise RuntimeError(f"maximum size for tensor at dimension {d} is {have} but size is {size}")
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    count = (have - size) // step + 1
    st = input._stride[d] if n else 1
    shape, stride = list(input._shape), list(input._stride)
    if n:
        shape[d], stride[d] = count, st * step
    out = make_view(input, [*shape, size], [*stride, st], input._offset)
    in_shape = input._shape

    def back(g):
        from .creation import arange, zeros
        pos = (arange(count, device=g.device) * step).unsqueeze(1) + arange(size, device=g.device)
        gw = g.movedim(-1, d + 1).flatten(d, d + 1) if n else g.reshape(-1)
        base = zeros(in_shape if n else (1,), dtype=g.dtype, device=g.device)
        res = base.index_add(d, pos.reshape(-1), gw)
        return (res if n else res.reshape(()),)
    return _record_view("UnfoldBackward0", input, out, back)


def diagflat(input: Tensor, offset: int = 0) -> Tensor:
    """A square matrix with the flattened ``input`` on diagonal ``offset``, zeros elsewhere.

    Example::

        >>> torch.diagflat(torch.tensor([[1, 2], [3, 4]]))
        tensor([[1, 0, 0, 0],
                [0, 2, 0, 0],
                [0, 0, 3, 0],
                [0, 0, 0, 4]])
    """
    from .diag import diag
    return diag(input.reshape(-1), offset)


# ---- the public names (bound by borch_webgpu/_bind.py) ------------------------------------------
methods(("atleast_1d", atleast_1d), ("atleast_2d", atleast_2d), ("atleast_3d", atleast_3d),
        ("broadcast_tensors", broadcast_tensors), ("column_stack", column_stack), ("row_stack", row_stack),
        ("dstack", dstack), ("block_diag", block_diag), ("combinations", combinations), tensor=False)
methods(("broadcast_to", broadcast_to), ("diff", diff), ("rot90", rot90), ("diagflat", diagflat))
api("unfold", method=unfold)
