"""borch_webgpu: PyTorch's shape, inside a browser tab.

``import borch_webgpu as torch`` gives tensors on WebGPU (in Pyodide) or on numpy (``cpu``,
everywhere), with PyTorch's names, signatures and exceptions.
"""
from ._version import __version__
from ._dtype import (bool, double, dtype, float, float16, float32, float64, get_default_dtype, half, int,  # noqa: A004
                     int32, int64, long, set_default_dtype)
from ._dtype import can_cast, finfo, iinfo, is_floating_point, is_tensor, promote_types, result_type
from .device import device, get_default_device, set_default_device
from .tensor import Size, Tensor
from ._tensor_str import set_printoptions
from . import autograd
from .autograd import enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled, no_grad, \
    set_grad_enabled
from .ops.creation import (arange, as_tensor, empty, empty_like, from_numpy, full, full_like, ones, ones_like, tensor,
                           zeros, zeros_like)
from .ops.elementwise import (add, arctan2, atan2, broadcast_shapes, div, divide, eq, floor_divide, fmod, ge, greater,
                              greater_equal, gt, le, lerp, less, less_equal, logical_and, logical_or, logical_xor, lt,
                              fmax, fmin, maximum, minimum, mul, multiply, ne, not_equal, pow, remainder, sub, subtract,
                              true_divide, where)
from .ops.unary import (abs, absolute, acos, arccos, arcsin, arctan, asin, atan, ceil, clamp, clip, cos, cosh, erf,  # noqa: A004
                        exp, exp2, expm1, fix, floor, frac, isfinite, isinf, isnan, log, log1p, log2, log10,
                        logical_not, nan_to_num, neg, negative, reciprocal, relu, round, rsqrt, sigmoid, sign, sin,
                        sinh, sqrt, square, tan, tanh, trunc)
from .ops.views import (chunk, flatten, movedim, narrow, permute, reshape, select, split, squeeze, swapaxes, swapdims,
                        t, transpose, unbind, unflatten, unsqueeze)
from .ops.memory import clone
from .ops.reduce import (all, amax, amin, any, argmax, argmin, count_nonzero, log_softmax, logsumexp, max, mean,  # noqa: A004
                         min, norm, prod, softmax, std, std_mean, sum, var, var_mean)
from .ops.indexing import (argwhere, gather, index_add, index_select, masked_fill, masked_select, nonzero, scatter,
                           scatter_add, take, tril, triu)
from .ops.subscript import index_put
from .ops.shape import cat, concat, concatenate, flip, fliplr, flipud, hstack, roll, stack, tile, vstack
from .ops.creation import eye, linspace
from .ops.random import (Generator, bernoulli, default_generator, get_rng_state, initial_seed, manual_seed,
                         multinomial, normal, rand, rand_like, randint, randint_like, randn, randn_like, randperm, seed,
                         set_rng_state)
from .ops.linalg import addmm, baddbmm, bmm, dot, einsum, ger, matmul, mm, mv, outer
from .ops.scan_sort import argsort, cumprod, cumsum, msort, sort, topk
from .ops.unary import selu
from .ops.compare import allclose, equal, isclose
from .serialization import load, save
from ._scope import keep, scope
from ._log import logged, set_log_sink
from ._log import log_dispatch as log
from . import cuda, linalg, nn, testing, utils, webgpu
from . import optim
from ._compile import compile  # noqa: A004
from . import _dynamo, compiler


def __getattr__(name: str):
    # borchvision loads on first use (it is torchvision's counterpart, not part of torch's namespace)
    if name == "vision":
        import importlib
        return importlib.import_module(".vision", __name__)
    raise AttributeError(f"module 'borch_webgpu' has no attribute {name!r}")

__all__ = [name for name in dir() if not name.startswith("_") or name == "__version__"]
