"""Activation modules: thin Modules over ``nn.functional`` with PyTorch's arguments and ``repr``.
``MultiheadAttention`` lives in transformer.py (re-exported here, where PyTorch has it)."""
from __future__ import annotations

import warnings

from ...tensor import Tensor
from .. import functional as F
from ._attention import MultiheadAttention
from .module import Module

__all__ = ["ReLU", "ReLU6", "GELU", "SiLU", "Sigmoid", "Tanh", "Softmax", "Softmax2d", "LogSoftmax", "LeakyReLU", "ELU", "SELU",
           "Hardswish", "Hardsigmoid", "Hardtanh", "Mish", "Softplus", "MultiheadAttention"]


class _Inplace(Module):
    """An activation with only an ``inplace`` flag (shown in repr when True)."""

    _fn = ""  # the torch.nn.functional name, looked up at call time (so the ONNX tracer sees the call)

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return getattr(F, self._fn)(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class ReLU(_Inplace):
    """``max(0, x)`` elementwise.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.ReLU()(torch.tensor([-1., 2.])).tolist()
        [0.0, 2.0]
    """

    _fn = "relu"


class ReLU6(_Inplace):
    """``min(max(0, x), 6)`` elementwise."""

    _fn = "relu6"


class SiLU(_Inplace):
    """``x * sigmoid(x)`` (swish)."""

    _fn = "silu"


class Mish(_Inplace):
    """``x * tanh(softplus(x))``."""

    _fn = "mish"


class SELU(_Inplace):
    """Scaled ELU with the self-normalising constants."""

    _fn = "selu"


class Hardswish(_Inplace):
    """``x * relu6(x + 3) / 6``."""

    _fn = "hardswish"

    def extra_repr(self) -> str:
        return ""


class Hardsigmoid(_Inplace):
    """``relu6(x + 3) / 6``."""

    _fn = "hardsigmoid"

    def extra_repr(self) -> str:
        return ""


class GELU(Module):
    """Gaussian error linear unit; ``approximate='tanh'`` uses the tanh approximation."""

    def __init__(self, approximate: str = "none") -> None:
        super().__init__()
        self.approximate = approximate

    def forward(self, input: Tensor) -> Tensor:
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self) -> str:
        return f"approximate={self.approximate!r}"


class Sigmoid(Module):
    """``1 / (1 + exp(-x))``."""

    def forward(self, input: Tensor) -> Tensor:
        return input.sigmoid()


class Tanh(Module):
    """Hyperbolic tangent."""

    def forward(self, input: Tensor) -> Tensor:
        return input.tanh()


class Softmax(Module):
    """Softmax along ``dim`` (rows that sum to 1).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.Softmax(dim=-1)(torch.zeros(1, 4)).tolist()
        [[0.25, 0.25, 0.25, 0.25]]
    """

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        return F.softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class Softmax2d(Module):
    """Softmax over the channels of each location of (N, C, H, W) or (C, H, W) input (dim -3).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.Softmax2d()(torch.zeros(1, 2, 1, 1)).flatten().tolist()
        [0.5, 0.5]
    """

    def forward(self, input: Tensor) -> Tensor:
        if input.dim() not in (3, 4):
            raise ValueError(f"Softmax2d: expected input to be 3D or 4D, got {input.dim()}D instead")
        return F.softmax(input, -3, _stacklevel=5)


class LogSoftmax(Module):
    """Log of the softmax along ``dim``, computed stably."""

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        return F.log_softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class LeakyReLU(Module):
    """``x`` where positive, else ``negative_slope * x``."""

    def __init__(self, negative_slope: float = 1e-2, inplace: bool = False) -> None:
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self) -> str:
        return f"negative_slope={self.negative_slope}{', inplace=True' if self.inplace else ''}"


class ELU(Module):
    """``x`` where positive, else ``alpha * (exp(x) - 1)``."""

    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}{', inplace=True' if self.inplace else ''}"


class Hardtanh(Module):
    """Clamp to ``[min_val, max_val]``."""

    def __init__(self, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False, min_value=None,
                 max_value=None) -> None:
        super().__init__()
        if min_value is not None:
            warnings.warn("keyword argument `min_value` is deprecated and renamed to `min_val`", FutureWarning,
                          stacklevel=2)
            min_val = min_value
        if max_value is not None:
            warnings.warn("keyword argument `max_value` is deprecated and renamed to `max_val`", FutureWarning,
                          stacklevel=2)
            max_val = max_value
        self.min_val = min_val
        self.max_val = max_val
        self.inplace = inplace
        if self.max_val <= self.min_val:
            raise AssertionError(f"max_val ({self.max_val}) must be greater than min_val ({self.min_val})")

    def forward(self, input: Tensor) -> Tensor:
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self) -> str:
        return f"min_val={self.min_val}, max_val={self.max_val}{', inplace=True' if self.inplace else ''}"


class Softplus(Module):
    """``log(1 + exp(beta * x)) / beta``, linear above ``threshold``."""

    def __init__(self, beta: float = 1.0, threshold: float = 20.0) -> None:
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, input: Tensor) -> Tensor:
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self) -> str:
        return f"beta={self.beta}, threshold={self.threshold}"


# the remaining activations, where PyTorch has them (torch.nn.modules.activation.PReLU): in activation_more.py
from .activation_more import (CELU, GLU, Hardshrink, LogSigmoid, PReLU, RReLU, Softmin, Softshrink,  # noqa: E402,F401
                              Softsign, Tanhshrink, Threshold)
