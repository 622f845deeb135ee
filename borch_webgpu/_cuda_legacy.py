"""``torch.cuda.FloatTensor`` and its kin: the legacy typed constructors of the GPU, which older examples
call (``torch.cuda.FloatTensor(n)``) or test against (``isinstance(x, torch.cuda.FloatTensor)``).

Here the GPU is the WebGPU device (``'cuda'`` means it, see :mod:`torch.cuda`): ``torch.cuda.FloatTensor(...)``
takes what ``torch.FloatTensor(...)`` takes and makes the tensor there, and ``isinstance`` asks for that dtype
on the WebGPU device. Without WebGPU the constructors raise what a CPU-only PyTorch raises.
"""
from __future__ import annotations

from . import _dtype
from ._legacy import _LegacyTensorType
from .tensor import Tensor

__all__ = ["FloatTensor", "DoubleTensor", "HalfTensor", "LongTensor", "IntTensor", "BoolTensor"]


class _CudaTensorType(_LegacyTensorType):
    def __instancecheck__(cls, obj) -> bool:
        return isinstance(obj, Tensor) and obj.dtype is cls.dtype and obj.device.type != "cpu"

    def __call__(cls, *args) -> Tensor:
        from . import webgpu
        if not webgpu.is_available():
            raise TypeError(f"type torch.cuda.{cls.__name__} not available. Torch not compiled with CUDA enabled.")
        return super().__call__(*args, device="cuda")


def _cuda(name: str, dt, doc: str):
    return _CudaTensorType(name, (), {"dtype": dt, "__doc__": doc, "__module__": "borch_webgpu.cuda"})


FloatTensor = _cuda("FloatTensor", _dtype.float32, """float32 on the GPU (the WebGPU device):
``torch.cuda.FloatTensor([1, 2])`` is ``torch.tensor([1., 2.], device='cuda')``, ``torch.cuda.FloatTensor(2, 3)``
has size (2, 3); ``isinstance(x, torch.cuda.FloatTensor)`` is True for a float32 tensor on the GPU only. Without
WebGPU, calling it raises TypeError (as a CPU-only PyTorch does).

Example::

    >>> import borch_webgpu as torch
    >>> isinstance(torch.zeros(1, device="cpu"), torch.cuda.FloatTensor)
    False
""")
DoubleTensor = _cuda("DoubleTensor", _dtype.float64, """float64 on the GPU (see :class:`FloatTensor`).

Example::

    >>> import borch_webgpu as torch
    >>> isinstance(torch.zeros(1, dtype=torch.float64, device="cpu"), torch.cuda.DoubleTensor)
    False
""")
HalfTensor = _cuda("HalfTensor", _dtype.float16, """float16 on the GPU (see :class:`FloatTensor`).

Example::

    >>> import borch_webgpu as torch
    >>> torch.cuda.HalfTensor.dtype
    torch.float16
""")
LongTensor = _cuda("LongTensor", _dtype.int64, """int64 on the GPU (see :class:`FloatTensor`).

Example::

    >>> import borch_webgpu as torch
    >>> isinstance(torch.zeros(1, dtype=torch.int64, device="cpu"), torch.cuda.LongTensor)
    False
""")
IntTensor = _cuda("IntTensor", _dtype.int32, """int32 on the GPU (see :class:`FloatTensor`).

Example::

    >>> import borch_webgpu as torch
    >>> torch.cuda.IntTensor.dtype
    torch.int32
""")
BoolTensor = _cuda("BoolTensor", _dtype.bool, """bool on the GPU (see :class:`FloatTensor`).

Example::

    >>> import borch_webgpu as torch
    >>> torch.cuda.BoolTensor.dtype
    torch.bool
""")
