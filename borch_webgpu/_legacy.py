"""PyTorch's legacy typed constructors (``torch.FloatTensor([1, 2])``, ``torch.LongTensor(3)``), which older
tutorials and upstream examples still use: data gives a tensor of that dtype, ints give a tensor of that size,
and ``isinstance(t, torch.FloatTensor)`` asks whether t is float32 (on either device: PyTorch's also asks for the
cpu device, where a CUDA tensor would be a ``torch.cuda.FloatTensor``)."""
from __future__ import annotations

import numbers

from . import _dtype
from .tensor import Size, Tensor

__all__ = ["FloatTensor", "DoubleTensor", "HalfTensor", "LongTensor", "IntTensor", "BoolTensor"]


class _LegacyTensorType(type):
    dtype: _dtype.dtype

    def __instancecheck__(cls, obj) -> bool:
        # the dtype only: in the browser tensors are made on the WebGPU device by default, and a script's
        # isinstance(x, torch.FloatTensor) asks whether x holds float32 (PyTorch also asks for the cpu device)
        return isinstance(obj, Tensor) and obj.dtype is cls.dtype

    def __call__(cls, *args, device=None) -> Tensor:
        from .ops.creation import empty, tensor
        if args and all(isinstance(a, numbers.Integral) and not isinstance(a, bool) for a in args):
            return empty(*args, dtype=cls.dtype, device=device)  # sizes (PyTorch leaves the values uninitialised)
        if not args:
            return empty(0, dtype=cls.dtype, device=device)
        if len(args) > 1:
            raise TypeError(f"{cls.__name__}(): expected sizes (ints) or one sequence of data, got {args!r}")
        data = args[0]
        if isinstance(data, Size):
            return empty(*data, dtype=cls.dtype, device=device)
        if isinstance(data, Tensor):
            if data.dtype is not cls.dtype:
                raise TypeError(f"{cls.__name__}(): expected a tensor of dtype {cls.dtype} (got {data.dtype}); "
                                f"use t.to({cls.dtype})")
            return data
        return tensor(data, dtype=cls.dtype, device=device)


def _legacy(name: str, dt, doc: str):
    return _LegacyTensorType(name, (), {"dtype": dt, "__doc__": doc, "__module__": "borch_webgpu"})


FloatTensor = _legacy("FloatTensor", _dtype.float32, """float32: ``torch.FloatTensor([1, 2])`` is
``torch.tensor([1., 2.])``; ``torch.FloatTensor(2, 3)`` has size (2, 3).

Example::

    >>> import borch_webgpu as torch
    >>> torch.FloatTensor([1, 2]), torch.FloatTensor(2, 3).shape, isinstance(torch.zeros(1), torch.FloatTensor)
    (tensor([1., 2.]), torch.Size([2, 3]), True)
""")
DoubleTensor = _legacy("DoubleTensor", _dtype.float64, """float64 (see :class:`FloatTensor`).

Example::

    >>> import borch_webgpu as torch
    >>> torch.DoubleTensor([0.5]).dtype
    torch.float64
""")
HalfTensor = _legacy("HalfTensor", _dtype.float16, """float16 (see :class:`FloatTensor`).

Example::

    >>> import borch_webgpu as torch
    >>> torch.HalfTensor([0.5], device="cpu").dtype
    torch.float16
""")
LongTensor = _legacy("LongTensor", _dtype.int64, """int64 (see :class:`FloatTensor`).

Example::

    >>> import borch_webgpu as torch
    >>> torch.LongTensor([1, 2])
    tensor([1, 2])
""")
IntTensor = _legacy("IntTensor", _dtype.int32, """int32 (see :class:`FloatTensor`).

Example::

    >>> import borch_webgpu as torch
    >>> torch.IntTensor([3]).dtype
    torch.int32
""")
BoolTensor = _legacy("BoolTensor", _dtype.bool, """bool (see :class:`FloatTensor`).

Example::

    >>> import borch_webgpu as torch
    >>> torch.BoolTensor([1, 0])
    tensor([ True, False])
""")


class _CudaTensorType(type):
    """``torch.cuda.FloatTensor`` and friends: here 'cuda' is the WebGPU device, so they make tensors there;
    where WebGPU is not available they raise what PyTorch built without CUDA raises."""
    dtype: _dtype.dtype

    def __instancecheck__(cls, obj) -> bool:
        return isinstance(obj, Tensor) and obj.dtype is cls.dtype and obj.device.type == "webgpu"

    def __call__(cls, *args) -> Tensor:
        from . import webgpu
        if not webgpu.is_available():
            raise TypeError(f"type torch.cuda.{cls.__name__} not available. Torch not compiled with CUDA enabled.")
        return _LegacyTensorType.__call__(_CPU_TYPES[cls.__name__], *args, device="webgpu")

    def __repr__(cls) -> str:
        return f"<class 'torch.cuda.{cls.__name__}'>"


_CPU_TYPES = {"FloatTensor": FloatTensor, "DoubleTensor": DoubleTensor, "HalfTensor": HalfTensor,
              "LongTensor": LongTensor, "IntTensor": IntTensor, "BoolTensor": BoolTensor,
              "ShortTensor": _legacy("ShortTensor", _dtype.int16, "int16."),
              "CharTensor": _legacy("CharTensor", _dtype.int8, "int8."),
              "ByteTensor": _legacy("ByteTensor", _dtype.uint8, "uint8.")}


def cuda_types() -> dict:
    """The ``torch.cuda.<Type>Tensor`` classes, one per dtype of ``_CPU_TYPES``."""
    out = {}
    for name, cpu in _CPU_TYPES.items():
        doc = (f"``torch.cuda.{name}``: a {cpu.dtype} tensor on the WebGPU device ('cuda' here); without WebGPU, "
               f"PyTorch's TypeError.\n\n    Example::\n\n        >>> import borch_webgpu as torch\n"
               f"        >>> isinstance(torch.ones(1, device='cpu'), torch.cuda.{name})\n        False\n    ")
        out[name] = _CudaTensorType(name, (), {"dtype": cpu.dtype, "__doc__": doc, "__module__": "borch_webgpu.cuda"})
    return out
