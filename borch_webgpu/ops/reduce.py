"""Reductions over all dims, one dim or several, with keepdim."""
from __future__ import annotations

import numpy as np

from .. import _dtype
from ..tensor import Tensor, _wrap_dim
from ._registry import OpDef, register

__all__ = ["sum"]


def reduce_dims(op: str, ndim: int, dim) -> tuple[int, ...]:
    if dim is None:
        return tuple(range(ndim))
    if ndim == 0:  # a 0-d tensor accepts dim 0 / -1 and has nothing to reduce
        for d in ((dim,) if isinstance(dim, int) else tuple(dim)):
            _wrap_dim(d, 0, op)
        return ()
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    if not dims:
        return tuple(range(ndim))
    out = []
    for d in dims:
        w = _wrap_dim(d, ndim, op)
        if w in out:
            raise RuntimeError(f"{op}: dim {w} appears multiple times in the list of dims")
        out.append(w)
    return tuple(sorted(out))


def reduce(op: OpDef, x: Tensor, dim, keepdim: bool, C, R) -> Tensor:
    dims = reduce_dims(op.name, x.dim(), dim)
    if keepdim:
        shape = tuple(1 if d in dims else s for d, s in enumerate(x._shape))
    else:
        shape = tuple(s for d, s in enumerate(x._shape) if d not in dims)
    storage = x._backend().reduce(op, x, dims, shape, C, R)
    return Tensor._make(storage, shape, R, x.device)


SUM = register(OpDef("sum", "reduce", ("ops_reduce.wgsl", "sum"), lambda a, dims: np.sum(a, axis=dims),
                     tol=(1e-5, 1e-5)))


def sum(input: Tensor, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:  # noqa: A001 - torch's name
    """Sum of elements over ``dim`` (all dims when None); integers and bools sum to int64."""
    out = dtype or (input.dtype if input.dtype.is_floating_point else _dtype.int64)
    _dtype.check_supported(out, "sum")
    return reduce(SUM, input, dim, keepdim, out, out)


Tensor.sum = lambda self, dim=None, keepdim=False, *, dtype=None: sum(self, dim, keepdim, dtype=dtype)
