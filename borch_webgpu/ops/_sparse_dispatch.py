"""The torch functions that take a sparse COO tensor as well: ``torch.mm`` / ``addmm`` / ``matmul`` / ``mv``
with a sparse left operand (through ``torch.sparse``, dense-backed on either device) and the zero-preserving
elementwise ops (``torch.abs(s)``, ``torch.neg(s)``, ``torch.mul(s, 2)``: the sparse tensor's own method).
Each replaces its op's ``Api`` record by a function of this module that checks for a sparse operand and
otherwise calls the dense function (one class check per call; ``Tensor.<name>`` of a dense tensor is not
wrapped where the dense method is enough)."""
from __future__ import annotations

import dataclasses
import functools

from ._sparse import VALUEWISE, SparseCooTensor
from ._registry import APIS

__all__: list[str] = []


def _install(name: str, fn, method=None) -> None:
    """``fn`` becomes torch.<name> (and its aliases), a function of this module for the type stubs."""
    from .memory import DIRECT
    rec = APIS[name]
    if rec.fn in DIRECT:  # Tensor.<name>_ keeps its one-kernel form (memory.inplace looks it up by fn)
        DIRECT[fn] = DIRECT[rec.fn]
    fn.__module__, fn.__name__, fn.__qualname__ = __name__, name, name
    globals()[name] = fn
    __all__.append(name)
    new = dataclasses.replace(rec, fn=fn) if method is None else dataclasses.replace(rec, fn=fn, method=method)
    for n in rec.names():
        APIS[n] = new


# ---- torch.mm / addmm / matmul / mv with a sparse left operand -----------------------------------------
def _sparse_aware(name: str, sparse_fn) -> None:
    """torch.<name> and Tensor.<name> send a sparse operand to ``sparse_fn``."""
    dense = APIS[name].fn

    @functools.wraps(dense)
    def fn(input, *args, **kwargs):
        if input.__class__ is SparseCooTensor or any(a.__class__ is SparseCooTensor for a in args[:2]):
            return sparse_fn(input, *args, **kwargs)
        return dense(input, *args, **kwargs)
    _install(name, fn)


def _mm(input, mat2, *, out=None):
    from . import sparse_fns as sparse
    return sparse._product(input, mat2, False)


def _addmm(input, mat1, mat2, *, beta=1, alpha=1, out=None):
    from . import sparse_fns as sparse
    if input.__class__ is SparseCooTensor:
        raise NotImplementedError("addmm: a sparse 'input' (the added matrix) is not supported here; "
                                  "pass input.to_dense()")
    return sparse._addmm(input, mat1, mat2, beta, alpha, False)


def _matmul(input, other, *, out=None):
    from . import sparse_fns as sparse
    if input.__class__ is SparseCooTensor:
        return sparse._matmul(input, other)
    return input.matmul(other._dense_operand())


def _mv(input, vec, *, out=None):
    from . import sparse_fns as sparse
    if input.__class__ is not SparseCooTensor or vec.__class__ is SparseCooTensor:
        raise NotImplementedError("mv: only a sparse matrix times a dense vector is supported here")
    return sparse._matmul(input, vec)


for _name, _fn in (("mm", _mm), ("addmm", _addmm), ("matmul", _matmul), ("mv", _mv)):
    _sparse_aware(_name, _fn)


# ---- torch.abs(s), torch.neg(s), torch.mul(s, 2), ...: the sparse tensor's own method -----------------------
def _valuewise_function(name: str) -> None:
    rec = APIS.get(name)
    if rec is None or rec.fn is None:
        return
    dense, method = rec.fn, getattr(SparseCooTensor, name)

    @functools.wraps(dense)
    def fn(input, *args, **kwargs):
        if input.__class__ is SparseCooTensor:
            return method(input, *args, **kwargs)
        return dense(input, *args, **kwargs)
    # only torch.<name> checks for a sparse input: Tensor.<name> stays the dense function (a sparse tensor
    # has its own method)
    _install(name, fn, rec.method if rec.method is not None else dense)


for _name in VALUEWISE + ("neg", "negative", "positive", "mul", "div"):
    _valuewise_function(_name)
