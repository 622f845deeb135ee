"""In-place ops under autograd as one kernel writing self, for ops whose backward reads no old value
of self (ops/memory.py's DIRECT table, filled here; memory.inplace consults it before its general
path, which clones self, runs the op out of place and copies the result back: three dispatches).

- ops whose backward reads only their result (relu_, sigmoid_, tanh_, exp_, sqrt_ ... the unary rows
  with ``saves_out``): the node saves self's new values, as PyTorch saves the result of ``relu_``;
- add_ / sub_ / += (the gradients are g and +-alpha * g): nothing is saved.
"""
from __future__ import annotations

from .. import autograd
from ..tensor import Tensor
from . import unary
from ._registry import OpDef
from .elementwise import _broadcast, _grad_name, add, ew, sub, sum_to
from .memory import DIRECT, rebase

__all__ = ["inplace_saving_out"]


def inplace_saving_out(op: OpDef, self: Tensor) -> Tensor:
    """``self = op(self)`` in place with autograd, for an op whose backward reads only its result
    (``saves_out``): the kernel writes self directly and the node saves self's new values (as PyTorch
    saves the result of ``relu_``), so a later in-place change of self is caught by the version check."""
    with autograd.no_grad():
        ew(op, self, out=self)   # or the epilogue of the kernel that just wrote self (_fold_into_producer)
    res = _alias(self)
    autograd.record(_grad_name(op), [self], [res], lambda g: op.backward(g, None, res), [res])
    rebase(self, res)
    return self


def _alias(self: Tensor) -> Tensor:
    res = Tensor._make(self._storage, self._shape, self.dtype, self._device, self._stride, self._offset)
    res._ver = self._ver
    return res


def _add_in_place(name: str):
    """``self.add_(other, alpha=)`` / ``sub_`` with autograd as one kernel writing self (their backward
    reads no value: the gradients are g and +-alpha * g), where other is a float tensor that self's
    shape already covers; None elsewhere (memory.inplace then takes its general path)."""
    def run(self: Tensor, other, *, alpha=1):
        if not (isinstance(other, Tensor) and self.dtype.is_floating_point and other.dtype == self.dtype
                and other.device == self.device and other._storage is not self._storage
                and _broadcast(name, [self._shape, other._shape]) == self._shape):
            return None
        with autograd.no_grad():
            (add if name == "add" else sub)(self, other, alpha=alpha, out=self)
        res = _alias(self)
        scale = alpha if name == "add" else -alpha
        need = other.requires_grad
        autograd.record("AddBackward0" if name == "add" else "SubBackward0", [self, other], [res],
                        lambda g: (g, sum_to(g if scale == 1 else g * scale, other._shape) if need else None), ())
        rebase(self, res)
        return self
    return run


for _name, _op in unary.UNARY.items():
    _f = getattr(unary, _name, None)
    if _op.extra.get("saves_out") and callable(_f):
        DIRECT[_f] = (lambda op: lambda self: inplace_saving_out(op, self))(_op)
DIRECT[add], DIRECT[sub] = _add_in_place("add"), _add_in_place("sub")
