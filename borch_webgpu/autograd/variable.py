"""``torch.autograd.Variable``: PyTorch's legacy wrapper, kept for old code. ``Variable(t)`` returns the
tensor ``t`` itself (``requires_grad=True`` sets the flag on it), and every tensor is an instance."""
from __future__ import annotations

from ..tensor import Tensor

__all__ = ["Variable"]


class _VariableMeta(type):
    def __instancecheck__(cls, other) -> bool:
        return isinstance(other, Tensor)

    def __call__(cls, data=None, requires_grad: bool = False, volatile: bool = False) -> Tensor:
        if data is None:  # PyTorch's Variable(): an empty tensor of the default dtype
            import numpy as np
            from .. import _dtype
            from ..device import backend_for, canonical
            dt, dev = _dtype.get_default_dtype(), canonical(None)
            data = Tensor._make(backend_for(dev).from_numpy(np.zeros(0, dt.storage_np), dt), (0,), dt, dev)
        if not isinstance(data, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        if requires_grad:
            data.requires_grad_(True)
        return data


class Variable(metaclass=_VariableMeta):
    """The legacy ``Variable(tensor, requires_grad=False)``: returns ``tensor`` (with ``requires_grad``
    set when asked); ``isinstance(t, Variable)`` is True for every tensor.

    Example::

        >>> import borch_webgpu as torch
        >>> from borch_webgpu.autograd import Variable
        >>> Variable(torch.ones(2), requires_grad=True)
        tensor([1., 1.], requires_grad=True)
    """


Variable.__module__ = "borch_webgpu.autograd.variable"
