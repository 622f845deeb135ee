"""Tensor facts and legacy methods PyTorch programs call: ndimension, nbytes, itemsize, get_device,
is_signed, is_nonzero, is_same_size, the neg flag (is_complex and the conj flags: ops/complex.py), the pinned and
shared memory flags, data_ptr, new, resize_/resize_as_, register_post_accumulate_grad_hook,
torch.detach/detach_, typename, Tensor.mH/H/adjoint (real tensors: transposes), dim_order,
new_empty_strided (the ``*_copy`` functions are ops/copies.py's; the view facts' goldens are in its
``view_copy`` group)."""
from __future__ import annotations

import builtins
import math
import weakref

from ..tensor import Size, Tensor
from ._registry import OpDef, api, methods, register

__all__ = ["ndimension", "get_device", "is_signed", "is_nonzero", "is_same_size", "new", "resize_",
           "resize_as_", "register_post_accumulate_grad_hook", "detach", "detach_", "typename"]

register(OpDef("resize_", "copy", None, None, tol=(0, 0), extra={"messages": True},
               doc="new geometry over the same storage, or a larger storage"))


# ---- facts --------------------------------------------------------------------------------------------
def ndimension(self: Tensor) -> int:
    """The number of dims (the legacy name of ``dim()``).

    Example::

        >>> torch.zeros(2, 3).ndimension()
        2
    """
    return self.dim()


def _nbytes(self: Tensor) -> int:
    """The bytes the elements take: ``numel() * itemsize``."""
    return self.numel() * self.dtype.itemsize


def _itemsize(self: Tensor) -> int:
    """Bytes per element (``element_size()``)."""
    return self.dtype.itemsize


def get_device(self: Tensor) -> int:
    """The device index: ``-1`` on ``cpu`` (as PyTorch), ``0`` on ``webgpu`` (the one adapter, as
    ``cuda:0`` would be).

    Example::

        >>> torch.zeros(2, device="cpu").get_device()
        -1
    """
    return -1 if self.device.type == "cpu" else 0


def is_signed(self: Tensor) -> bool:
    """True unless the dtype is ``bool`` or unsigned (``uint8``).

    Example::

        >>> torch.tensor([1]).is_signed(), torch.tensor([True]).is_signed()
        (True, False)
    """
    return self.dtype.name not in ("bool", "uint8")


def is_nonzero(input: Tensor) -> bool:
    """The truth of a one-element tensor; more or fewer elements raise as in PyTorch.

    Example::

        >>> torch.tensor([2.]).is_nonzero()
        True
    """
    n = input.numel()
    if n == 0:
        raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
    if n > 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    return builtins.bool(input.item())


def is_same_size(input: Tensor, other: Tensor) -> bool:
    """True when both tensors have the same shape.

    Example::

        >>> torch.zeros(2, 3).is_same_size(torch.ones(2, 3))
        True
    """
    return tuple(input._shape) == tuple(other._shape)


def _false(name: str, why: str):
    def f(input: Tensor) -> bool:
        return False
    f.__name__ = name
    f.__doc__ = f"False: {why}.\n\n    Example::\n\n        >>> torch.zeros(2).{name}()\n        False\n    "
    return f


is_neg = _false("is_neg", "tensors here carry no lazy negation bit")
is_pinned = _false("is_pinned", "there is no page-locked host memory in a browser tab")


def _self(name: str, what: str):
    def f(input: Tensor) -> Tensor:
        return input
    f.__name__ = name
    f.__doc__ = (f"``input`` itself: {what}.\n\n    Example::\n\n        >>> x = torch.ones(2)\n"
                 f"        >>> torch.{name}(x) is x\n        True\n    ")
    return f


resolve_neg = _self("resolve_neg", "a tensor here has no negation bit to resolve")

_SHARED: set[int] = set()  # id()s of the tensors share_memory_() marked (dropped when a tensor dies)


def pin_memory(self: Tensor, device=None) -> Tensor:
    """Raises as PyTorch does without an accelerator: pinned memory is a CUDA host-memory feature,
    and copies to WebGPU here need none.

    Example::

        >>> torch.zeros(2).is_pinned()
        False
    """
    raise RuntimeError("Cannot access accelerator device when none is available.")


def share_memory_(self: Tensor) -> Tensor:
    """Returns self and marks it shared (``is_shared()`` then says True). A browser tab has one Python
    process, so every tensor is already visible to all the code that runs in it.

    Example::

        >>> x = torch.zeros(2)
        >>> x.share_memory_() is x, x.is_shared()
        (True, True)
    """
    if id(self) not in _SHARED:
        _SHARED.add(id(self))
        weakref.finalize(self, _SHARED.discard, id(self))
    return self


def is_shared(self: Tensor) -> bool:
    """True after ``share_memory_()`` (see there)."""
    return id(self) in _SHARED


def data_ptr(self: Tensor) -> int:
    """An integer naming where the first element lives: the same for tensors that share storage and
    offset, ``itemsize`` more per element of offset, as PyTorch's. It is not a memory address (WebGPU
    buffers have none that Python can see), so it is only good for comparing.

    Example::

        >>> x = torch.zeros(4)
        >>> x[1:].data_ptr() - x.data_ptr()
        4
    """
    return (id(self._storage) << 20) + self._offset * self.dtype.itemsize


# ---- legacy construction and resizing -----------------------------------------------------------------
def new(self: Tensor, *args, **kwargs) -> Tensor:
    """The legacy constructor, in this tensor's dtype and device: ``x.new()`` is empty, ``x.new(2, 3)``
    or ``x.new(torch.Size([2, 3]))`` is uninitialized of that size, ``x.new([1, 2])`` copies data,
    ``x.new(t)`` shares ``t``'s data.

    Example::

        >>> torch.zeros(1).new([1, 2])
        tensor([1., 2.])
    """
    from .creation import empty, tensor
    dtype, device = kwargs.pop("dtype", self.dtype), kwargs.pop("device", self.device)
    if kwargs:
        raise TypeError(f"new() got an unexpected keyword argument '{next(iter(kwargs))}'")
    if not args:
        return empty(0, dtype=dtype, device=device)
    if len(args) == 1 and isinstance(args[0], Tensor):
        return args[0].detach()
    if builtins.all(isinstance(a, builtins.int) and not isinstance(a, builtins.bool) for a in args) or (
            len(args) == 1 and isinstance(args[0], Size)):
        return empty(*args, dtype=dtype, device=device)
    if len(args) == 1:
        return tensor(args[0], dtype=dtype, device=device)
    raise TypeError(f"new(): invalid arguments {args!r}")


def resize_(self: Tensor, *sizes, memory_format=None) -> Tensor:
    """Give this tensor the shape ``sizes`` (contiguous strides), in place. When the elements fit in
    its storage the storage is kept and the leading elements keep their values; a larger size gets a
    new storage holding the old elements first and uninitialized ones after (views made before then
    keep the old storage).

    Example::

        >>> torch.arange(6.).resize_(2, 2)
        tensor([[0., 1.],
                [2., 3.]])
    """
    from .creation import empty
    from .memory import assign
    from .views import _shape_args
    if self.requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    shape = _shape_args(sizes)
    for s in shape:
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: {list(shape)}")
    n, have = math.prod(shape), self.numel()
    from ..tensor import contiguous_strides
    if n <= have and self.is_contiguous():
        self._shape, self._stride = tuple(shape), contiguous_strides(shape)
    else:
        old = self.detach().reshape(-1)
        fresh = empty(builtins.max(n, 1), dtype=self.dtype, device=self.device)
        keep = builtins.min(n, have)
        if keep:
            assign(fresh[:keep], old[:keep])
        self._storage, self._offset = fresh._storage, fresh._offset
        self._shape, self._stride = tuple(shape), contiguous_strides(shape)
        self._base = None
    self._bump_version()
    return self


def resize_as_(self: Tensor, the_template: Tensor, *, memory_format=None) -> Tensor:
    """``resize_`` to ``the_template``'s shape.

    Example::

        >>> torch.zeros(2, 3).resize_as_(torch.zeros(6)).shape
        torch.Size([6])
    """
    return resize_(self, the_template._shape)


def new_empty_strided(self: Tensor, size, stride, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """``torch.empty_strided`` in this tensor's dtype and device (unless given).

    Example::

        >>> torch.zeros(1).new_empty_strided((2, 2), (1, 2)).stride()
        (1, 2)
    """
    from .creation_more import empty_strided
    return empty_strided(size, stride, dtype=dtype or self.dtype, device=device or self.device,
                         requires_grad=requires_grad)


def dim_order(self: Tensor, *, ambiguity_check=False) -> tuple:
    """The dims from outermost to innermost in memory (by decreasing stride; ties keep dim order).

    Example::

        >>> torch.zeros(2, 3).t().dim_order()
        (1, 0)
    """
    return tuple(sorted(range(self.dim()), key=lambda i: -self._stride[i]))


def adjoint(self: Tensor) -> Tensor:
    """The conjugate transpose of the last two dims: for real tensors a view, ``transpose(-2, -1)``.

    Example::

        >>> torch.zeros(2, 3).adjoint().shape
        torch.Size([3, 2])
    """
    return _mH(self)


def _mH(self: Tensor) -> Tensor:
    """The last two dims transposed (and conjugated for complex tensors)."""
    if self.dim() < 2:
        raise RuntimeError(f"tensor.mH is only supported on matrices or batches of matrices. Got {self.dim()}-D "
                           "tensor.")
    return self.transpose(-2, -1).conj() if self.dtype.is_complex else self.transpose(-2, -1)


def _H(self: Tensor) -> Tensor:
    """The (conjugate) transpose of a matrix."""
    if self.dim() != 2:
        raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got {self.dim()}-D tensor.")
    return self.t().conj() if self.dtype.is_complex else self.t()


def typename(obj) -> str:
    """A tensor's legacy type name (``'torch.FloatTensor'``), else the object's type name.

    Example::

        >>> torch.typename(torch.zeros(1)), torch.typename(3)
        ('torch.FloatTensor', 'int')
    """
    if isinstance(obj, Tensor):
        return obj.type()
    t = obj if isinstance(obj, type) else type(obj)
    mod = t.__module__
    return t.__qualname__ if mod in ("builtins", None) else f"{mod}.{t.__qualname__}"


# ---- autograd ------------------------------------------------------------------------------------------
def register_post_accumulate_grad_hook(self: Tensor, hook):
    """Call ``hook(tensor)`` after ``backward()`` has added into this leaf's ``.grad`` (optimizers that
    step inside backward use it); returns a handle whose ``remove()`` unregisters it.

    Example::

        >>> w = torch.ones(2, requires_grad=True)
        >>> h = w.register_post_accumulate_grad_hook(lambda p: print(p.grad))
        >>> (w * 3).sum().backward()
        tensor([3., 3.])
    """
    from ..autograd.engine import POST_ACCUMULATE
    from ..autograd.graph import _Handle
    if not self.requires_grad:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    if self.grad_fn is not None:
        raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
    hooks = POST_ACCUMULATE.get(id(self))
    if hooks is None:
        hooks = POST_ACCUMULATE[id(self)] = []
        weakref.finalize(self, POST_ACCUMULATE.pop, id(self), None)
    hooks.append(hook)
    return _Handle(hooks, hook)


def detach(input: Tensor) -> Tensor:
    """``input.detach()``: the same data, cut from the graph.

    Example::

        >>> torch.detach(torch.ones(2, requires_grad=True)).requires_grad
        False
    """
    return input.detach()


def detach_(input: Tensor) -> Tensor:
    """``input.detach_()``: cut ``input`` itself from the graph.

    Example::

        >>> x = torch.ones(2, requires_grad=True) * 2
        >>> torch.detach_(x).requires_grad
        False
    """
    return input.detach_()


# ---- the public names (bound by borch_webgpu/_bind.py) ------------------------------------------
methods(("ndimension", ndimension), ("new", new), ("new_empty_strided", new_empty_strided),
        ("resize_", resize_), ("pin_memory", pin_memory), ("dim_order", dim_order), ("adjoint", adjoint),
        ("share_memory_", share_memory_), ("is_shared", is_shared), ("data_ptr", data_ptr),
        ("const_data_ptr", data_ptr),
        ("register_post_accumulate_grad_hook", register_post_accumulate_grad_hook), torch=False)
api("nbytes", method=property(_nbytes))
api("mH", method=property(_mH))
api("H", method=property(_H))
api("typename", typename, tensor=False)
api("itemsize", method=property(_itemsize))
# is_complex, is_conj, conj, conj_physical and resolve_conj: ops/complex.py
methods(("is_nonzero", is_nonzero), ("is_same_size", is_same_size),
        ("is_neg", is_neg), ("resolve_neg", resolve_neg), ("is_pinned", is_pinned),
        ("get_device", get_device), ("is_signed", is_signed), ("resize_as_", resize_as_))
methods(("detach", detach), ("detach_", detach_), tensor=False)
