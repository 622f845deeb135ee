"""``torch.autograd.Variable``, the pre-0.4 wrapper that older tutorials and upstream examples still call.

Since PyTorch 0.4 a Variable is a Tensor: ``Variable(t)`` returns a new tensor sharing ``t``'s data, cut
from the graph (a leaf), with the ``requires_grad`` asked for; ``volatile`` only warns; and every tensor
passes ``isinstance(x, Variable)``.
"""
from __future__ import annotations

import sys
import warnings

from ..tensor import Tensor

__all__ = ["Variable"]

_VOLATILE = "volatile was removed and now has no effect. Use `with torch.no_grad():` instead."


class _VariableMeta(type):
    def __instancecheck__(cls, obj) -> bool:
        return isinstance(obj, Tensor)


class Variable(metaclass=_VariableMeta):
    """``Variable(data, requires_grad=False, volatile=False)``: the tensor ``data.detach()`` (sharing
    ``data``'s values) with ``requires_grad`` set; kept for code written before PyTorch 0.4. ``volatile``
    has no effect (it warns; use :class:`torch.no_grad`). ``data`` must be a tensor; no argument gives
    an empty float tensor. Every tensor is an instance of ``Variable``.

    Example::

        >>> import borch_webgpu as torch
        >>> x = torch.autograd.Variable(torch.ones(2), requires_grad=True)
        >>> x, type(x).__name__, isinstance(torch.zeros(1), torch.autograd.Variable)
        (tensor([1., 1.], requires_grad=True), 'Tensor', True)
    """

    def __new__(cls, data=None, requires_grad=False, volatile=False, **kwargs):
        if kwargs:
            raise TypeError(f"'{next(iter(kwargs))}' is an invalid keyword argument for this function")
        if volatile:
            warnings.warn(_VOLATILE, UserWarning, stacklevel=2)
            if requires_grad:
                raise ValueError("Variable can't be volatile and require_grad at the same time!")
        if data is None:   # the ops sit above autograd: reach them through the package, bound by now
            data = sys.modules["borch_webgpu"].empty(0)
        elif not isinstance(data, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        if requires_grad and not data.dtype.is_floating_point:
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        out = data.detach()
        if requires_grad:
            out.requires_grad_(True)
        return out
