"""borch_webgpu: PyTorch's shape, inside a browser tab.

``import borch_webgpu as torch`` gives tensors on WebGPU (in Pyodide) or on numpy (``cpu``,
everywhere), with PyTorch's names, signatures and exceptions.
"""
from ._version import __version__
from ._dtype import (bool, double, dtype, float, float16, float32, float64, get_default_dtype, half, int,  # noqa: A004
                     int32, int64, long, set_default_dtype)
from .device import device, get_default_device, set_default_device
from .tensor import Size, Tensor
from ._tensor_str import set_printoptions
from .ops.creation import (arange, as_tensor, empty, empty_like, from_numpy, full, full_like, ones, ones_like, tensor,
                           zeros, zeros_like)
from .ops.elementwise import add, broadcast_shapes, div, divide, mul, multiply, sub, subtract, true_divide
from .ops.reduce import sum  # noqa: A004
from . import webgpu

__all__ = [
    "__version__", "Tensor", "Size", "dtype", "device",
    "float32", "float", "float16", "half", "float64", "double", "int32", "int", "int64", "long", "bool",
    "get_default_dtype", "set_default_dtype", "get_default_device", "set_default_device", "set_printoptions",
    "tensor", "as_tensor", "from_numpy", "zeros", "ones", "full", "empty", "arange",
    "zeros_like", "ones_like", "full_like", "empty_like",
    "add", "sub", "mul", "div", "subtract", "multiply", "divide", "true_divide", "broadcast_shapes", "sum",
    "webgpu",
]
