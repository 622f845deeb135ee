"""Diagonals: ``diagonal`` (a view), ``diag``, ``diag_embed`` and ``trace``.

A diagonal is a strided view: the step along it is the sum of the two dims' strides, so reading
and writing it (``x.diagonal().fill_(0)``) needs no kernel of its own. ``diag`` and ``diag_embed``
write a diagonal view of a zero tensor; their backward reads the diagonal back.
"""
from __future__ import annotations

import builtins

from .. import autograd
from ..tensor import Tensor, _wrap_dim
from ._registry import OpDef, methods, register
from .views import _record_view, make_view

__all__ = ["diagonal", "diag", "diag_embed", "trace"]

DIAGONAL = register(OpDef("diagonal", "view", None, None, tol=(0, 0), doc="view: the stride along the diagonal "
                                                                           "is the sum of the two dims' strides",
                          extra={"messages": True}))
DIAG = register(OpDef("diag", "copy", None, None, tol=(0, 0), doc="a vector's diagonal matrix, or a matrix's "
                                                                   "diagonal (a copy)", extra={"messages": True}))
DIAG_EMBED = register(OpDef("diag_embed", "copy", None, None, tol=(0, 0),
                            doc="zeros with the last dim written on a diagonal of two new dims",
                            extra={"messages": True}))
# a sum along the diagonal view: the sum kernel's accumulation
TRACE = register(OpDef("trace", "reduce", None, None, tol=(1e-6, 1e-6), doc="sum of the main diagonal",
                       extra={"messages": True}))


def _require(op: str, x) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}(): argument 'input' (position 1) must be Tensor, not {type(x).__name__}")
    return x


def _geometry(x: Tensor, offset: int, d1: int, d2: int):
    """(shape, stride, storage offset) of the diagonal view of x."""
    s1, s2 = x._shape[d1], x._shape[d2]
    if offset >= 0:
        n = builtins.max(builtins.min(s1, s2 - offset), 0)
        start = offset * x._stride[d2]
    else:
        n = builtins.max(builtins.min(s1 + offset, s2), 0)
        start = -offset * x._stride[d1]
    keep = [i for i in range(x.dim()) if i not in (d1, d2)]
    shape = [x._shape[i] for i in keep] + [n]
    stride = [x._stride[i] for i in keep] + [x._stride[d1] + x._stride[d2]]
    return shape, stride, x._offset + (start if n else 0)


def _dims(op: str, ndim: int, dim1, dim2) -> tuple[int, int]:
    d1, d2 = _wrap_dim(dim1, ndim, op), _wrap_dim(dim2, ndim, op)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return d1, d2


def diagonal(input: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """A view of the diagonal of dims ``dim1`` and ``dim2`` (``offset`` above it when positive, below
    when negative), as the last dim of the result; writes through it change ``input``.

    Example::

        >>> torch.diagonal(torch.arange(9).reshape(3, 3), 1)
        tensor([1, 5])
    """
    x = _require("diagonal", input)
    d1, d2 = _dims("diagonal", x.dim(), dim1, dim2)
    offset = builtins.int(offset)
    shape, stride, start = _geometry(x, offset, d1, d2)
    out = make_view(x, shape, stride, start)
    in_shape = x._shape
    return _record_view("DiagonalBackward0", x, out, lambda g: (_diagonal_backward(g, in_shape, offset, d1, d2),))


_diagonal = diagonal  # diag's argument is called diagonal, as in PyTorch


def _diagonal_backward(g: Tensor, shape, offset: int, d1: int, d2: int) -> Tensor:
    """Zeros of ``shape`` with g written on the diagonal (differentiable in g: its backward is diagonal)."""
    from .creation import zeros
    from .memory import assign
    out = zeros(shape, dtype=g.dtype, device=g.device)
    vshape, vstride, start = _geometry(out, offset, d1, d2)
    assign(make_view(out, vshape, vstride, start), g.detach())
    autograd.record("DiagonalBackwardBackward0", [g], [out], lambda gg: (diagonal(gg, offset, d1, d2),))
    return out


def diag_embed(input: Tensor, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    """A tensor whose diagonals (of dims ``dim1`` and ``dim2``, ``offset`` from the main one) hold the
    last dim of ``input``; everything else is zero.

    Example::

        >>> torch.diag_embed(torch.tensor([1, 2]))
        tensor([[1, 0],
                [0, 2]])
    """
    x = _require("diag_embed", input)
    n = x.dim() + 1
    d1, d2 = _dims("diag_embed", n, dim1, dim2)
    offset = builtins.int(offset)
    size = (x._shape[-1] if x.dim() else 1) + abs(offset)
    shape = list(x._shape[:-1])
    for d in sorted((d1, d2)):
        shape.insert(d, size)
    return _embed("DiagEmbedBackward0", x, shape, offset, d1, d2)


def _embed(name: str, x: Tensor, shape, offset: int, d1: int, d2: int) -> Tensor:
    from .creation import zeros
    from .memory import assign
    out = zeros(shape, dtype=x.dtype, device=x.device)
    vshape, vstride, start = _geometry(out, offset, d1, d2)
    assign(make_view(out, vshape, vstride, start), x.detach())
    autograd.record(name, [x], [out], lambda g: (diagonal(g, offset, d1, d2),))
    return out


def diag(input: Tensor, diagonal: int = 0) -> Tensor:
    """For a 1-D ``input``, the square matrix with it on diagonal ``diagonal`` (zeros elsewhere); for a
    2-D one, a copy of that diagonal.

    Example::

        >>> torch.diag(torch.tensor([1, 2]), 1)
        tensor([[0, 1, 0],
                [0, 0, 2],
                [0, 0, 0]])
    """
    x = _require("diag", input)
    k = builtins.int(diagonal)
    if x.dim() == 1:
        size = x._shape[0] + abs(k)
        return _embed("DiagEmbedBackward0", x, (size, size), k, 0, 1)
    if x.dim() == 2:
        from .memory import clone
        return clone(_diagonal(x, k))
    raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {x.dim()}D")


def trace(input: Tensor) -> Tensor:
    """The sum of the main diagonal of a matrix (integers sum to int64).

    Example::

        >>> torch.trace(torch.arange(9).reshape(3, 3))
        tensor(12)
    """
    x = _require("trace", input)
    if x.dim() != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {x.dim()}")
    if x.dtype.name == "bool":
        raise NotImplementedError("\"trace\" not implemented for 'Bool'")
    return diagonal(x).sum()


# ---- the public names (bound by borch_webgpu/_bind.py) ------------------------------------------
methods(("diagonal", diagonal), ("diag", diag), ("diag_embed", diag_embed), ("trace", trace))
