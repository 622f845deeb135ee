"""``nn.Parameter`` and ``nn.Buffer``: tensors that a Module registers when they are assigned to it."""
from __future__ import annotations

from ..tensor import Tensor

__all__ = ["Parameter", "Buffer", "UninitializedParameter", "UninitializedBuffer", "UninitializedTensorMixin", "is_lazy"]


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
        if requires_grad and not (data.dtype.is_floating_point or data.dtype.is_complex):
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


# ---- lazy modules' placeholders -------------------------------------------------------------------------
_UNINIT_SHAPE = ("Can't access the shape of an uninitialized parameter or buffer. This error usually happens in "
                 "`load_state_dict` when trying to load an uninitialized parameter into an initialized one. Call "
                 "`forward` to initialize the parameters before accessing their attributes.")


class UninitializedTensorMixin:
    """What the placeholders of lazy modules share: no shape until ``materialize(shape)`` gives them one
    (and turns them into the class they stand for, ``cls_to_become``)."""

    def materialize(self, shape, device=None, dtype=None) -> None:
        """Become a tensor of ``shape`` (uninitialized memory) on ``device`` / with ``dtype`` (default: the
        placeholder's), of class ``cls_to_become`` (the same object, so optimizers that hold it keep it)."""
        from ..ops.creation import empty
        data = Tensor.data.fget(self)
        device = data.device if device is None else device
        dtype = data.dtype if dtype is None else dtype
        Tensor.data.fset(self, empty(shape, device=device, dtype=dtype))
        self.__class__ = self.cls_to_become

    @property
    def shape(self):
        raise RuntimeError(_UNINIT_SHAPE)

    def share_memory_(self):
        raise RuntimeError("Can't share memory on an uninitialized parameter or buffer. Call `forward` to initialize "
                           "the parameters before calling `module.share_memory()`.")

    def __repr__(self) -> str:
        return f"<{self.__class__.__name__}>"

    def __reduce_ex__(self, proto):
        return (self.__class__, (self.requires_grad,))


_UNINIT_ALLOWED = {"size", "copy_", "is_complex", "is_floating_point", "half", "float", "double", "char", "short",
                   "int", "long", "cuda", "cpu", "to", "get_device", "__hash__", "__repr__", "__deepcopy__",
                   "__reduce_ex__", "__eq__", "__ne__", "__bool__", "__len__", "__iter__", "__contains__",
                   "__setitem__", "__getitem__", "__format__", "__array__"}


def _refuse(name: str, shown: str):
    def refuse(self, *args, **kwargs):
        raise ValueError(f"Attempted to use an uninitialized parameter in <method '{shown}' of 'torch._C.TensorBase' "
                         "objects>. This error happens when you are using a `LazyModule` or explicitly manipulating "
                         f"`torch.nn.parameter.{type(self).__name__}` objects. When using LazyModules Call `forward` "
                         "with a dummy batch to initialize the parameters before calling torch functions")
    refuse.__name__ = name
    return refuse


def _refuse_tensor_methods() -> None:
    """The placeholders refuse the Tensor methods of the op records (``p.mul(2)``, ``p + 1``), as PyTorch's
    do through ``__torch_function__``; moves, casts, ``copy_`` and ``size`` stay allowed."""
    from ..ops._registry import APIS
    for name, rec in APIS.items():
        if not rec.tensor or name in _UNINIT_ALLOWED or name in UninitializedTensorMixin.__dict__:
            continue
        if not callable(getattr(Tensor, name, None)):
            continue
        shown = name
        if name.startswith("__") and name.endswith("__"):
            core = name[2:-2]
            core = core[1:] if core.startswith("r") and f"__{core[1:]}__" in APIS else core
            core = core[1:] if core.startswith("i") and f"__{core[1:]}__" in APIS else core
            shown = {"truediv": "div", "floordiv": "floor_divide", "matmul": "matmul", "neg": "neg",
                     "pow": "pow", "mod": "remainder"}.get(core, core)
        setattr(UninitializedTensorMixin, name, _refuse(name, shown))


def is_lazy(param) -> bool:
    """Whether ``param`` is an :class:`UninitializedParameter` or :class:`UninitializedBuffer`.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.parameter.is_lazy(torch.nn.LazyLinear(3).weight)
        True
    """
    return isinstance(param, UninitializedTensorMixin)


class UninitializedParameter(UninitializedTensorMixin, Parameter):
    """A parameter whose shape is not known yet (a lazy module's, until its first forward); it becomes a
    :class:`Parameter` when materialized. ``device`` / ``dtype`` are those it will have.

    Example::

        >>> import borch_webgpu as torch
        >>> p = torch.nn.UninitializedParameter()
        >>> p.materialize((2, 3)); type(p).__name__, p.shape
        ('Parameter', torch.Size([2, 3]))
    """

    cls_to_become = Parameter

    def __new__(cls, requires_grad: bool = True, device=None, dtype=None):
        from ..ops.creation import empty
        t = _alias(cls, empty(0, device=device, dtype=dtype))
        t.requires_grad = bool(requires_grad)
        return t

    def __init__(self, /, *args, **kwargs) -> None:
        pass  # everything happens in __new__

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        data = Tensor.data.fget(self)
        result = type(self)(self.requires_grad, data.device, data.dtype)
        memo[id(self)] = result
        return result


class UninitializedBuffer(UninitializedTensorMixin, _MarkedBuffer):
    """A buffer whose shape is not known yet (a lazy module's running statistics); it becomes a plain
    tensor (still marked as a buffer) when materialized.

    Example::

        >>> import borch_webgpu as torch
        >>> b = torch.nn.UninitializedBuffer()
        >>> b.materialize((4,)); b.shape
        torch.Size([4])
    """

    cls_to_become = _MarkedBuffer

    def __new__(cls, requires_grad: bool = False, device=None, dtype=None, persistent: bool = True):
        from ..ops.creation import empty
        data = empty(0, device=device, dtype=dtype)
        t = cls._make(data._storage, data._shape, data.dtype, data._device, data._stride, data._offset)
        t._ver = data._ver
        t.requires_grad = requires_grad
        t.persistent = persistent
        t._is_buffer = True
        return t

    def __init__(self, /, *args, **kwargs) -> None:
        pass  # everything happens in __new__

    def __deepcopy__(self, memo):
        data = Tensor.data.fget(self)
        t = type(self)(self.requires_grad, data.device, data.dtype, self.persistent)
        memo[id(self)] = t
        return t


_refuse_tensor_methods()
