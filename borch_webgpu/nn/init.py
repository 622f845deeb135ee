"""``torch.nn.init``: fill tensors in place with PyTorch's initialisation formulas.

The random numbers come from borch_webgpu's own generator (``manual_seed`` makes them
reproducible here), so they are not PyTorch's numbers; the distributions and bounds are.
Every function runs without recording gradients and returns the tensor it filled.
"""
from __future__ import annotations

import math
import warnings

import numpy as np

from ..autograd import no_grad
from ..tensor import Tensor

__all__ = ["calculate_gain", "uniform_", "normal_", "trunc_normal_", "constant_", "ones_", "zeros_", "eye_",
           "xavier_uniform_", "xavier_normal_", "kaiming_uniform_", "kaiming_normal_", "orthogonal_", "dirac_", "sparse_"]


def calculate_gain(nonlinearity: str, param=None) -> float:
    """The recommended gain for a nonlinearity: 1 for linear/conv/sigmoid, 5/3 for tanh, sqrt(2) for relu,
    sqrt(2 / (1 + slope^2)) for leaky_relu, 3/4 for selu.

    Example::

        >>> from borch_webgpu import nn
        >>> round(nn.init.calculate_gain("leaky_relu", 0.2), 4)
        1.3868
    """
    linear_fns = ["linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d"]
    if nonlinearity in linear_fns or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            negative_slope = 0.01
        elif not isinstance(param, bool) and isinstance(param, (int, float)):
            negative_slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + negative_slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _no_op_if_empty(tensor: Tensor) -> bool:
    if 0 in tuple(tensor.shape):
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=3)
        return True
    return False


def _calculate_fan_in_and_fan_out(tensor: Tensor) -> tuple[int, int]:
    """(fan_in, fan_out): ``size(1) * receptive field`` and ``size(0) * receptive field``."""
    if tensor.dim() < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    receptive = math.prod(tensor.shape[2:]) if tensor.dim() > 2 else 1
    return tensor.size(1) * receptive, tensor.size(0) * receptive


def _calculate_correct_fan(tensor: Tensor, mode: str) -> int:
    mode = mode.lower()
    valid = ["fan_in", "fan_out"]
    if mode not in valid:
        raise ValueError(f"Mode {mode} not supported, please use one of {valid}")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0, generator=None) -> Tensor:
    """Fill with values drawn uniformly from ``[a, b)``."""
    with no_grad():
        return tensor.uniform_(a, b, generator=generator)


def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, generator=None) -> Tensor:
    """Fill with values drawn from ``N(mean, std^2)``."""
    with no_grad():
        return tensor.normal_(mean, std, generator=generator)


def _erfinv(y: np.ndarray) -> np.ndarray:
    """Inverse error function (Giles' single-precision approximation, ~1e-7 relative: below float32's
    resolution); y = +-1 gives +-inf, as torch.erfinv (trunc_normal_ then clips to its bounds)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        w = -np.log((1.0 - y) * (1.0 + y))
        ws = w - 2.5
        p = np.full_like(y, 2.81022636e-08)
        for c in (3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503, -0.00417768164,
                  0.246640727, 1.50140941):
            p = c + p * ws
        wl = np.sqrt(np.maximum(w, 5.0)) - 3.0
        q = np.full_like(y, -0.000200214257)
        for c in (0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613, 0.00943887047,
                  1.00167406, 2.83297682):
            q = c + q * wl
        out = np.where(w < 5.0, p, q) * y
    return np.where(np.abs(y) >= 1.0, np.copysign(np.inf, y), out)


def trunc_normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, a: float = -2.0, b: float = 2.0,
                  generator=None) -> Tensor:
    """Fill with values from ``N(mean, std^2)`` truncated to ``[a, b]`` (inverse-CDF sampling, as PyTorch)."""
    def norm_cdf(x):
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    if mean < a - 2 * std or mean > b + 2 * std:
        warnings.warn("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The distribution of values may "
                      "be incorrect.", stacklevel=2)
    with no_grad():
        lo, hi = norm_cdf((a - mean) / std), norm_cdf((b - mean) / std)
        u = tensor.detach().clone().uniform_(2 * lo - 1, 2 * hi - 1, generator=generator)
        x = _erfinv(u.numpy().astype(np.float64)) * (std * math.sqrt(2.0)) + mean
        _write(tensor, np.clip(x, a, b))
    return tensor


def _write(tensor: Tensor, values: np.ndarray) -> None:
    from ..ops.creation import tensor as make
    from ..ops.memory import assign
    assign(tensor, make(values.astype(np.float32), dtype=tensor.dtype, device=tensor.device))


def constant_(tensor: Tensor, val: float) -> Tensor:
    """Fill with ``val``."""
    with no_grad():
        return tensor.fill_(val)


def ones_(tensor: Tensor) -> Tensor:
    """Fill with ones."""
    with no_grad():
        return tensor.fill_(1.0)


def zeros_(tensor: Tensor) -> Tensor:
    """Fill with zeros."""
    with no_grad():
        return tensor.zero_()


def eye_(tensor: Tensor) -> Tensor:
    """Fill a 2-D tensor with the identity matrix (ones on the diagonal)."""
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    with no_grad():
        _write(tensor, np.eye(*tuple(tensor.shape)))
    return tensor


def dirac_(tensor: Tensor, groups: int = 1) -> Tensor:
    """Fill a 3-, 4- or 5-D convolution weight with the Dirac delta: a convolution that keeps its input's
    channels (``min(out / groups, in)`` of them per group), a one at each kernel's centre.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.init.dirac_(torch.empty(2, 2, 3)).tolist()
        [[[0.0, 1.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 1.0, 0.0]]]
    """
    dims = tensor.dim()
    if dims not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tuple(tensor.shape)
    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    per_group = sizes[0] // groups
    values = np.zeros(sizes)
    centre = tuple(s // 2 for s in sizes[2:])
    for g in range(groups):
        for d in range(min(per_group, sizes[1])):
            values[(g * per_group + d, d) + centre] = 1
    with no_grad():
        _write(tensor, values)
    return tensor


def sparse_(tensor: Tensor, sparsity: float, std: float = 0.01, generator=None) -> Tensor:
    """Fill a 2-D tensor with ``N(0, std^2)`` values, then zero ``ceil(sparsity * rows)`` random rows of
    each column (the sparse initialisation of Martens, 2010).

    Example::

        >>> import borch_webgpu as torch
        >>> w = torch.nn.init.sparse_(torch.empty(10, 3), sparsity=0.3)
        >>> (w == 0).sum(0).tolist()
        [3, 3, 3]
    """
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    from ..ops.random import randperm
    rows, cols = tuple(tensor.shape)
    num_zeros = math.ceil(sparsity * rows)
    with no_grad():
        tensor.normal_(0, std, generator=generator)
        values = tensor.detach().cpu().numpy().copy()
        for col in range(cols):
            values[randperm(rows, generator=generator).numpy()[:num_zeros], col] = 0
        _write(tensor, values)
    return tensor


def xavier_uniform_(tensor: Tensor, gain: float = 1.0, generator=None) -> Tensor:
    """Glorot uniform: ``U(-a, a)`` with ``a = gain * sqrt(6 / (fan_in + fan_out))``."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std
    return uniform_(tensor, -a, a, generator)


def xavier_normal_(tensor: Tensor, gain: float = 1.0, generator=None) -> Tensor:
    """Glorot normal: ``N(0, std^2)`` with ``std = gain * sqrt(2 / (fan_in + fan_out))``."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return normal_(tensor, 0.0, std, generator)


def kaiming_uniform_(tensor: Tensor, a: float = 0, mode: str = "fan_in", nonlinearity: str = "leaky_relu",
                     generator=None) -> Tensor:
    """He uniform: ``U(-bound, bound)`` with ``bound = gain * sqrt(3 / fan)`` (``fan_in`` or ``fan_out``).

    Example::

        >>> import borch_webgpu as torch
        >>> w = torch.empty(8, 4)
        >>> bool(torch.nn.init.kaiming_uniform_(w, a=5 ** 0.5).abs().max() <= 0.5)
        True
    """
    if _no_op_if_empty(tensor):
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    gain = calculate_gain(nonlinearity, a)
    bound = math.sqrt(3.0) * gain / math.sqrt(fan)
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor: Tensor, a: float = 0, mode: str = "fan_in", nonlinearity: str = "leaky_relu",
                    generator=None) -> Tensor:
    """He normal: ``N(0, std^2)`` with ``std = gain / sqrt(fan)``."""
    if _no_op_if_empty(tensor):
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    gain = calculate_gain(nonlinearity, a)
    return normal_(tensor, 0.0, gain / math.sqrt(fan), generator)


def orthogonal_(tensor: Tensor, gain: float = 1, generator=None) -> Tensor:
    """Fill with a (semi-)orthogonal matrix (QR of a normal draw, signs fixed as PyTorch), times ``gain``.
    The QR runs in numpy on the host."""
    if tensor.dim() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.size(0)
    cols = tensor.numel() // rows
    from ..ops.random import randn
    flat = randn(rows, cols, generator=generator).numpy().astype(np.float64)
    if rows < cols:
        flat = flat.T
    q, r = np.linalg.qr(flat)
    q = q * np.sign(np.diag(r))
    if rows < cols:
        q = q.T
    with no_grad():
        _write(tensor, (q * gain).reshape(tuple(tensor.shape)))
    return tensor


def _make_deprecate(meth):
    """PyTorch's old names without the trailing underscore: the same function, with its FutureWarning."""
    new_name = meth.__name__
    old_name = new_name[:-1]

    def deprecated_init(*args, **kwargs):
        warnings.warn(f"`nn.init.{old_name}` is now deprecated in favor of `nn.init.{new_name}`.", FutureWarning,
                      stacklevel=2)
        return meth(*args, **kwargs)
    deprecated_init.__doc__ = f"""{old_name}(...): deprecated, :func:`{new_name}` with a ``FutureWarning``, as PyTorch.

    Example::

        >>> import warnings
        >>> with warnings.catch_warnings(record=True) as w:
        ...     warnings.simplefilter("always")
        ...     t = torch.nn.init.{old_name}(torch.empty({"2, 2, 3" if old_name == "dirac" else "3, 3"}){", 0.5" if old_name in ("constant", "sparse") else ""})
        >>> str(w[0].message)
        '`nn.init.{old_name}` is now deprecated in favor of `nn.init.{new_name}`.'
    """
    deprecated_init.__name__ = deprecated_init.__qualname__ = old_name
    return deprecated_init


uniform = _make_deprecate(uniform_)
normal = _make_deprecate(normal_)
constant = _make_deprecate(constant_)
eye = _make_deprecate(eye_)
dirac = _make_deprecate(dirac_)
xavier_uniform = _make_deprecate(xavier_uniform_)
xavier_normal = _make_deprecate(xavier_normal_)
kaiming_uniform = _make_deprecate(kaiming_uniform_)
kaiming_normal = _make_deprecate(kaiming_normal_)
orthogonal = _make_deprecate(orthogonal_)
sparse = _make_deprecate(sparse_)
__all__ += ["uniform", "normal", "constant", "eye", "dirac", "xavier_uniform", "xavier_normal", "kaiming_uniform",
            "kaiming_normal", "orthogonal", "sparse"]
