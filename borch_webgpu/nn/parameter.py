"""``nn.Parameter`` and ``nn.Buffer``: tensors that a Module registers when they are assigned to it."""
from __future__ import annotations

from ..tensor import Tensor

__all__ = ["Parameter", "Buffer"]


def _alias(cls, data: Tensor):
    """A ``cls`` instance over ``data``'s memory (same storage, geometry and version counter)."""
    t = cls._make(data._storage, data._shape, data.dtype, data._device, data._stride, data._offset)
    t._ver = data._ver
    return t


class Parameter(Tensor):
    """A tensor that is a module's parameter: assigned as a Module attribute, it is registered
    and returned by ``parameters()``. It shares the memory of the tensor it wraps.

    Args:
        data (Tensor): the values (shared, not copied). Default: an empty tensor.
        requires_grad (bool): whether it requires gradient. Default: ``True`` (also inside ``no_grad``).

    Example::

        >>> import borch_webgpu as torch
        >>> p = torch.nn.Parameter(torch.ones(2))
        >>> p.requires_grad, p.is_leaf
        (True, True)
    """

    def __new__(cls, data: Tensor | None = None, requires_grad: bool = True):
        if data is None:
            from ..ops.creation import empty
            data = empty(0)
        if not isinstance(data, Tensor):
            raise TypeError(f"Parameter(): argument 'data' must be a Tensor, not {type(data).__name__}")
        if requires_grad and not data.dtype.is_floating_point:
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        t = _alias(cls, data)
        t.requires_grad = bool(requires_grad)
        return t

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True) -> None:
        pass  # everything happens in __new__ (Tensor.__init__ refuses direct construction)

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        result = type(self)(self.detach().clone(), self.requires_grad)
        memo[id(self)] = result
        return result

    def __reduce_ex__(self, proto):
        return (_rebuild_parameter, (self.detach(), self.requires_grad))


def _rebuild_parameter(data: Tensor, requires_grad: bool) -> Parameter:
    return Parameter(data, requires_grad)


class _BufferMeta(type):
    # isinstance(t, Buffer) holds for plain tensors marked by Buffer(...), as in PyTorch
    def __instancecheck__(cls, instance) -> bool:
        return isinstance(instance, Tensor) and getattr(instance, "_is_buffer", False)


class Buffer(metaclass=_BufferMeta):
    """A tensor that is registered as a buffer when assigned to a Module attribute
    (``persistent=False`` keeps it out of ``state_dict``). It is the tensor itself, marked.

    Example::

        >>> import borch_webgpu as torch
        >>> m = torch.nn.Module()
        >>> m.steps = torch.nn.Buffer(torch.zeros(()))
        >>> list(dict(m.named_buffers()))
        ['steps']
    """

    def __new__(cls, data: Tensor | None = None, *, persistent: bool = True):
        if data is None:
            from ..ops.creation import empty
            data = empty(0)
        t = _MarkedBuffer._make(data._storage, data._shape, data.dtype, data._device, data._stride, data._offset)
        t._ver = data._ver
        t.requires_grad = data.requires_grad
        t._is_buffer = True
        t.persistent = persistent
        return t


class _MarkedBuffer(Tensor):
    """A plain tensor with room for the marks (``Tensor`` itself has ``__slots__``)."""

    def __deepcopy__(self, memo):
        t = Buffer(self.detach().clone(), persistent=self.persistent)
        memo[id(self)] = t
        return t
