"""borch_webgpu: PyTorch's shape, inside a browser tab.

``import borch_webgpu as torch`` gives tensors on WebGPU (in Pyodide) or on numpy (``cpu``,
everywhere), with PyTorch's names, signatures and exceptions.
"""
from ._version import __version__
from ._dtype import (bfloat16, bool, double, dtype, float, float16, float32, float64, get_default_dtype, half, int,  # noqa: A004
                     int8, int16, int32, int64, long, set_default_dtype, short, uint8)
from ._dtype import cdouble, cfloat, complex64, complex128
from ._dtype import can_cast, finfo, iinfo, promote_types
from .device import device, get_default_device, set_default_device
from .device.gpu_errors import OutOfMemoryError
from .tensor import Size, Tensor
from .ops._layout import layout, sparse_coo, strided
from ._legacy import BoolTensor, DoubleTensor, FloatTensor, HalfTensor, IntTensor, LongTensor
from ._tensor_str import set_printoptions
from . import autograd
from .autograd import enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled, no_grad, \
    set_grad_enabled
from .ops.random import Generator, default_generator
from ._bind import FUNCTIONS as _FUNCTIONS
globals().update(_FUNCTIONS)  # torch.add, torch.zeros, ...: the records of ops/*.py (see _bind.py)
from .serialization import load, save
from ._scope import keep, scope
from ._assert import _assert
from ._log import logged, set_log_sink
from ._log import log_dispatch as log
from . import cuda, fft, linalg, nn, return_types, sparse, testing, utils, webgpu
from . import onnx
from . import optim
from . import ao
from ._compile import compile  # noqa: A004
from . import _dynamo, compiler
from . import fx
from . import jit
from . import accelerator, backends
from . import amp, cpu
from .amp import autocast
from .amp.autocast_mode import (clear_autocast_cache, get_autocast_dtype, is_autocast_cache_enabled,
                                is_autocast_enabled, set_autocast_cache_enabled, set_autocast_dtype,
                                set_autocast_enabled)
from .amp._legacy_state import (get_autocast_cpu_dtype, get_autocast_gpu_dtype, is_autocast_cpu_enabled,
                                set_autocast_cpu_dtype, set_autocast_cpu_enabled, set_autocast_gpu_dtype)
from . import distributions
from . import profiler


def __getattr__(name: str):
    # borchvision and the model catalog load on first use (torchvision's and timm's counterparts, not part
    # of torch's namespace), and the hub, which builds on the catalog
    if name in ("vision", "models", "hub"):
        import importlib
        return importlib.import_module("." + name, __name__)
    raise AttributeError(f"module 'borch_webgpu' has no attribute {name!r}")

__all__ = [name for name in dir() if not name.startswith("_") or name == "__version__"]
