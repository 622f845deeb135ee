"""The remaining activations of ``torch.nn.functional`` (celu, glu, hardshrink, logsigmoid, prelu, rrelu,
softmin, softshrink, softsign, tanhshrink, threshold), their in-place forms, and rms_norm. The elementwise ones
are rows of ops/unary.py's table (a WGSL block each, one dispatch); the others are written after
torch/nn/functional.py with other differentiable ops, so they run on every device and differentiate (twice)
through those ops' kernels."""
from __future__ import annotations

import builtins

import numpy as np

from ..tensor import Tensor
from ._registry import OpDef, register
from .elementwise import ew, where
from .unary import UNARY, _u, exp, sigmoid, tanh

__all__ = ["celu", "glu", "hardshrink", "logsigmoid", "prelu", "rrelu", "softmin", "softshrink", "softsign",
           "tanhshrink", "threshold", "relu_", "elu_", "leaky_relu_", "hardtanh_", "selu_", "celu_", "threshold_",
           "rrelu_", "rms_norm"]

# the elementwise ones: a WGSL block each (wgsl/ops_unary.wgsl), rows of ops/unary.py's table; backward(g, x, out,
# *params) written with ops. The sign of a zero result is not compared (as for unary.py's activations).
_ACT = {"signed_zero": False, "messages": True}


def _np_softplus_neg(a):
    with np.errstate(over="ignore"):
        return np.where(-a > 20, a, -np.log1p(np.exp(-a))).astype(a.dtype)


def _shrink_zero(g, a, lambd):
    return where((a >= -lambd) & (a <= lambd), 0.0, g)


def _celu_back(g, a, out, alpha):
    return (where(a > 0, g, g * exp(a / alpha)),)


def _logsigmoid_back(g, a, out):
    return (g * sigmoid(-a),)


def _tanh2(a):
    t = tanh(a)
    return t * t


_u("celu", lambda a, al: np.where(a <= 0, al * np.expm1(a / al), a).astype(a.dtype), _celu_back, tol=(2e-6, 1e-7),
   grad_name="EluBackward0", **_ACT)
_u("hardshrink", lambda a, l: np.where((a >= -l) & (a <= l), 0, a).astype(a.dtype),
   lambda g, a, out, l: (_shrink_zero(g, a, l),), rule="same", tol=(0, 0), **_ACT)
_u("softshrink", lambda a, l: np.where(a > l, a - l, np.where(a < -l, a + l, a * 0)).astype(a.dtype),
   lambda g, a, out, l: (_shrink_zero(g, a, l),), rule="same", tol=(1e-6, 0), **_ACT)
_u("softsign", lambda a: (a / (1 + np.abs(a))).astype(a.dtype),
   lambda g, a, out: (g / ((a.abs() + 1) * (a.abs() + 1)),), tol=(2e-6, 1e-7), **_ACT)
_u("tanhshrink", lambda a: (a - np.tanh(a)).astype(a.dtype),
   lambda g, a, out: (g * _tanh2(a),), tol=(2e-6, 1e-6), **_ACT)
_u("logsigmoid", _np_softplus_neg, _logsigmoid_back, tol=(2e-6, 1e-6), **_ACT)


# compositions of other ops (a chunk and a sigmoid, a where, a softmax)
for _n, _doc in (("glu", "a * sigmoid(b), the two halves of input along dim"),
                 ("prelu", "x where x > 0, else weight * x (a weight per channel)"),
                 ("rrelu", "leaky_relu with a random slope in [lower, upper] (training) or their mean"),
                 ("softmin", "softmax(-x)"), ("threshold", "x where x > threshold, else value")):
    register(OpDef(_n, "nn", None, None, tol=(2e-6, 1e-6), doc=_doc, extra={"messages": True}))
# a mean of squares, a rsqrt and a product
register(OpDef("rms_norm", "nn", None, None, tol=(1e-5, 1e-6), doc="x / sqrt(mean(x^2) + eps) * weight",
               extra={"messages": True}))


def _tname(x: Tensor) -> str:
    from .. import _dtype
    return _dtype.SCALAR_NAMES[x.dtype.name]


def _need_tensor(op: str, x) -> None:
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}(): argument 'input' (position 1) must be Tensor, not {type(x).__name__}")


def _need_float(op: str, kernel: str, x) -> None:
    _need_tensor(op, x)
    if not x.dtype.is_floating_point:
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_tname(x)}'")


def _inplace(name: str, fn, input: Tensor, *args) -> Tensor:
    from .memory import inplace
    return inplace(name, lambda x: fn(x, *args), input)


def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``, continuously differentiable ELU.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.celu(torch.tensor([-2., 0., 3.]), alpha=2.0)
        tensor([-1.2642,  0.0000,  3.0000])
    """
    _need_float("celu", "elu_cpu", input)
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    if inplace:
        return _inplace("celu_", celu, input, alpha)
    return ew(UNARY["celu"], input, params=(builtins.float(alpha),))


def celu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    """In-place :func:`celu`.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.celu_(torch.tensor([-1., 2.]))
        tensor([-0.6321,  2.0000])
    """
    return celu(input, alpha, inplace=True)


def glu(input: Tensor, dim: int = -1) -> Tensor:
    """Gated linear unit: ``a * sigmoid(b)``, where ``a`` and ``b`` are the two halves of ``input`` along ``dim``.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.glu(torch.tensor([[1., 2., 0., 100.]]))
        tensor([[0.5000, 2.0000]])
    """
    from ..tensor import _wrap_dim
    _need_tensor("glu", input)
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    d = _wrap_dim(dim, input.dim(), "glu")
    n = input._shape[d]
    if n % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {d} is size {n}")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"glu_cpu\" not implemented for '{_tname(input)}'")
    a, b = input.narrow(d, 0, n // 2), input.narrow(d, n // 2, n // 2)
    return a * sigmoid(b)


def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """``x`` where ``|x| > lambd``, else 0.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.hardshrink(torch.tensor([-1., -0.3, 0.2, 0.7]))
        tensor([-1.0000,  0.0000,  0.0000,  0.7000])
    """
    _need_float("hardshrink", "hardshrink_cpu", input)
    return ew(UNARY["hardshrink"], input, params=(builtins.float(lambd),))


def softshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, else 0.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.softshrink(torch.tensor([-1., 0.2, 2.]))
        tensor([-0.5000,  0.0000,  1.5000])
    """
    _need_float("softshrink", "softshrink_check", input)
    if not 0 <= lambd <= 3.4028234663852886e38:
        raise RuntimeError(f"lambda must be in range [0, 3.40282e+38] for input dtype {_tname(input)}, but found "
                           f"{lambd:g}")
    return ew(UNARY["softshrink"], input, params=(builtins.float(lambd),))


def logsigmoid(input: Tensor) -> Tensor:
    """``log(sigmoid(x))``, computed as ``-softplus(-x)`` (no overflow for large ``|x|``).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.logsigmoid(torch.tensor([0., -100.]))
        tensor([  -0.6931, -100.0000])
    """
    _need_float("logsigmoid", "log_sigmoid_cpu", input)
    return ew(UNARY["logsigmoid"], input)


def softsign(input: Tensor) -> Tensor:
    """``x / (1 + |x|)`` (integers become floats, as in PyTorch).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.softsign(torch.tensor([-3., 0., 1.]))
        tensor([-0.7500,  0.0000,  0.5000])
    """
    _need_tensor("softsign", input)
    return ew(UNARY["softsign"], input)


def tanhshrink(input: Tensor) -> Tensor:
    """``x - tanh(x)`` (integers become floats, as in PyTorch).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.tanhshrink(torch.tensor([0., 1.]))
        tensor([0.0000, 0.2384])
    """
    _need_tensor("tanhshrink", input)
    return ew(UNARY["tanhshrink"], input)


def threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:
    """``x`` where ``x > threshold``, else ``value`` (NaN stays NaN; the result keeps the input's dtype).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.threshold(torch.tensor([0.5, 1., 2.]), 1.0, -9.0)
        tensor([-9., -9.,  2.])
    """
    _need_tensor("threshold", input)
    if inplace:
        return _inplace("threshold_", _threshold, input, threshold, value)
    return _threshold(input, threshold, value)


def _threshold(input: Tensor, threshold: float, value: float) -> Tensor:
    if input.dtype.name == "bool":
        raise RuntimeError("\"threshold_cpu\" not implemented for 'Bool'")
    if not input.dtype.is_floating_point:
        value = builtins.int(value)
    r = where(input <= threshold, value, input)
    return r if r.dtype == input.dtype else r.to(input.dtype)


def threshold_(input: Tensor, threshold: float, value: float) -> Tensor:
    """In-place :func:`threshold`.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.threshold_(torch.tensor([0., 3.]), 1.0, 5.0)
        tensor([5., 3.])
    """
    _need_tensor("threshold_", input)
    return _inplace("threshold_", _threshold, input, threshold, value)


def softmin(input: Tensor, dim=None, _stacklevel: int = 3, dtype=None) -> Tensor:
    """``softmax(-input)`` along ``dim`` (the implicit choice of dim without it warns, as in PyTorch).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.softmin(torch.tensor([0., 1.]), dim=0)
        tensor([0.7311, 0.2689])
    """
    from .reduce import _softmax_dim, softmax
    _need_tensor("softmin", input)
    if dim is None:
        dim = _softmax_dim("softmin", input, None)
    if dtype is not None:
        input = input.to(dtype)
    return softmax(-input, dim)


def prelu(input: Tensor, weight: Tensor) -> Tensor:
    """``x`` where ``x > 0``, else ``weight * x``; ``weight`` holds one slope or one per channel (dim 1).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.prelu(torch.tensor([[-1., 2.], [-4., -1.]]), torch.tensor([0.5, 0.1]))
        tensor([[-0.5000,  2.0000],
                [-2.0000, -0.1000]])
    """
    _need_tensor("prelu", input)
    if not isinstance(weight, Tensor):
        raise TypeError(f"prelu(): argument 'weight' (position 2) must be Tensor, not {type(weight).__name__}")
    if weight.dim() > 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = {weight.dim()}")
    n = weight.numel()
    if input.dim() == 0 and n != 1:
        raise RuntimeError("Not allow zero-dim input tensor.")
    channels = input._shape[1] if input.dim() >= 2 else 1
    if n != 1 and n != channels:
        raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found parameter numbers = {n} "
                           f"and channel size = {channels}.")
    _need_float("prelu", "prelu_cpu", input)
    w = weight.reshape(()) if n == 1 else weight.reshape((channels,) + (1,) * (input.dim() - 2))
    return where(input > 0, input, w * input)


def _rrelu_check(input: Tensor, lower: float, upper: float) -> None:
    _need_float("rrelu", "leaky_relu_cpu", input)
    if lower > upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")


def rrelu(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False,
          inplace: bool = False) -> Tensor:
    """Randomized leaky ReLU: in training each negative element is scaled by its own slope drawn uniformly
    from ``[lower, upper]``; in evaluation by their mean ``(lower + upper) / 2``.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.rrelu(torch.tensor([-3., 2.]), 0.1, 0.3)
        tensor([-0.6000,  2.0000])
        >>> y = F.rrelu(-torch.ones(1000), training=True)
        >>> bool((y >= -1 / 3).all() and (y <= -1 / 8).all())
        True
    """
    from .random import rand
    from .unary import leaky_relu
    _rrelu_check(input, lower, upper)
    if inplace:
        return _inplace("rrelu_", rrelu, input, lower, upper, training)
    if not training:
        return leaky_relu(input, (lower + upper) / 2)
    slope = rand(tuple(input._shape), dtype=input.dtype, device=input.device) * (upper - lower) + lower
    return input * where(input >= 0, 1.0, slope)


def rrelu_(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False) -> Tensor:
    """In-place :func:`rrelu`.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.rrelu_(torch.tensor([-3., 2.]), 0.1, 0.3)
        tensor([-0.6000,  2.0000])
    """
    return rrelu(input, lower, upper, training, inplace=True)


def relu_(input: Tensor) -> Tensor:
    """In-place ``relu``.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.relu_(torch.tensor([-1., 2.]))
        tensor([0., 2.])
    """
    _need_tensor("relu_", input)
    if input.dtype.name == "bool":
        raise RuntimeError("Boolean inputs not supported for relu")
    return input.relu_()


def elu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    """In-place ``elu``.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.elu_(torch.tensor([-1., 2.]))
        tensor([-0.6321,  2.0000])
    """
    from .unary import elu
    return elu(input, alpha, inplace=True)


def leaky_relu_(input: Tensor, negative_slope: float = 0.01) -> Tensor:
    """In-place ``leaky_relu``.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.leaky_relu_(torch.tensor([-1., 2.]), 0.1)
        tensor([-0.1000,  2.0000])
    """
    from .unary import leaky_relu
    return leaky_relu(input, negative_slope, inplace=True)


def hardtanh_(input: Tensor, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:
    """In-place ``hardtanh``.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.hardtanh_(torch.tensor([-3., 0.5, 2.]))
        tensor([-1.0000,  0.5000,  1.0000])
    """
    from .unary import hardtanh
    return hardtanh(input, min_val, max_val, inplace=True)


def selu_(input: Tensor) -> Tensor:
    """In-place ``selu``.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.selu_(torch.tensor([0., 1.]))
        tensor([0.0000, 1.0507])
    """
    from .unary import selu
    return selu(input, inplace=True)


def rms_norm(input: Tensor, normalized_shape, weight: Tensor | None = None, eps: float | None = None) -> Tensor:
    """Root-mean-square normalisation over the trailing ``normalized_shape`` dims:
    ``x / sqrt(mean(x^2) + eps) * weight``; ``eps=None`` takes ``torch.finfo(input.dtype).eps``.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.rms_norm(torch.tensor([[3., 4.]]), (2,))
        tensor([[0.8485, 1.1314]])
    """
    from .. import _dtype
    from .unary import rsqrt
    _need_tensor("rms_norm", input)
    if not isinstance(normalized_shape, (tuple, list)):
        raise TypeError(f"rms_norm(): argument 'normalized_shape' (position 2) must be tuple of ints, not "
                        f"{type(normalized_shape).__name__}")
    shape = [builtins.int(s) for s in normalized_shape]
    k = len(shape)
    if k == 0 or input.dim() < k or list(input._shape[input.dim() - k:]) != shape:
        raise RuntimeError(f"Given normalized_shape={shape}, expected input with shape [*{', '.join(map(str, shape))}]"
                           f", but got input of size{list(input._shape)}")
    if weight is not None and list(weight._shape) != shape:
        raise RuntimeError(f"Expected weight to be of same shape as normalized_shape, but got weight of shape "
                           f"{list(weight._shape)} and normalized_shape = {shape}")
    _need_float("rms_norm", "rms_norm", input)
    if eps is None:
        eps = _dtype.finfo(input.dtype).eps
    dims = tuple(range(input.dim() - k, input.dim()))
    y = input * rsqrt((input * input).mean(dims, keepdim=True) + eps)
    return y if weight is None else y * weight
