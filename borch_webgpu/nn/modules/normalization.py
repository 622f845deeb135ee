"""``LayerNorm`` and ``GroupNorm``."""
from __future__ import annotations

import numbers

from ...ops.creation import empty
from ...tensor import Tensor
from .. import functional as F, init
from ..parameter import Parameter
from .module import Module

__all__ = ["LayerNorm", "GroupNorm", "LocalResponseNorm", "RMSNorm"]


def _affine_parameters(module: Module, affine: bool, shape, bias: bool, device, dtype) -> None:
    """``weight`` and ``bias`` of ``shape`` (registered as None when not ``affine``, or no ``bias``)."""
    module.register_parameter("weight", Parameter(empty(shape, device=device, dtype=dtype)) if affine else None)
    module.register_parameter("bias", Parameter(empty(shape, device=device, dtype=dtype)) if affine and bias
                              else None)


def _normalized_shape(module: Module, normalized_shape, eps, elementwise_affine: bool) -> None:
    """LayerNorm's and RMSNorm's ``normalized_shape`` (a tuple; an int becomes one), ``eps`` and
    ``elementwise_affine`` attributes."""
    if isinstance(normalized_shape, numbers.Integral):
        normalized_shape = (normalized_shape,)
    module.normalized_shape = tuple(normalized_shape)
    module.eps = eps
    module.elementwise_affine = elementwise_affine


def _reset_affine(module: Module) -> None:
    if module.weight is not None:
        init.ones_(module.weight)
    if module.bias is not None:
        init.zeros_(module.bias)


class LayerNorm(Module):
    """Normalise over the last dims (``normalized_shape``), then scale and shift elementwise
    (weight ones, bias zeros, when ``elementwise_affine``).

    Example::

        >>> import borch_webgpu as torch
        >>> ln = torch.nn.LayerNorm(10)
        >>> ln(torch.randn(20, 5, 10)).shape
        torch.Size([20, 5, 10])
        >>> ln
        LayerNorm((10,), eps=1e-05, elementwise_affine=True, bias=True)
    """

    def __init__(self, normalized_shape, eps: float = 1e-5, elementwise_affine: bool = True, bias: bool = True,
                 device=None, dtype=None) -> None:
        super().__init__()
        _normalized_shape(self, normalized_shape, eps, elementwise_affine)
        _affine_parameters(self, elementwise_affine, self.normalized_shape, bias, device, dtype)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        _reset_affine(self)

    def forward(self, input: Tensor) -> Tensor:
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return ("{normalized_shape}, eps={eps}, elementwise_affine={elementwise_affine}, "
                "bias={use_bias}".format(**self.__dict__, use_bias=self.bias is not None))


class GroupNorm(Module):
    """Split the channels into ``num_groups`` groups and normalise each group of each sample
    (per-channel weight ones and bias zeros when ``affine``)."""

    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-5, affine: bool = True, device=None,
                 dtype=None, *, bias: bool = True) -> None:
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError(f"num_channels ({num_channels}) must be divisible by num_groups ({num_groups})")
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        _affine_parameters(self, affine, (num_channels,), bias, device, dtype)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        _reset_affine(self)

    def forward(self, input: Tensor) -> Tensor:
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return ("{num_groups}, {num_channels}, eps={eps}, affine={affine}, "
                "bias={use_bias}".format(**self.__dict__, use_bias=self.bias is not None))


class LocalResponseNorm(Module):
    """Local response normalisation across channels (``F.local_response_norm``).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.LocalResponseNorm(2, alpha=1.0, beta=1.0)(torch.ones(1, 2, 1)).flatten().tolist()
        [0.6666666865348816, 0.5]
    """

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0) -> None:
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k

    def forward(self, input: Tensor) -> Tensor:
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self) -> str:
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"


# ---- RMSNorm ------------------------------------------------------------------------------------------------
class RMSNorm(Module):
    """Root-mean-square normalisation over the trailing ``normalized_shape`` dims, times a learnt ``weight``
    (ones at first) when ``elementwise_affine``; ``eps=None`` takes ``torch.finfo(input.dtype).eps``.

    Example::

        >>> import borch_webgpu as torch
        >>> m = torch.nn.RMSNorm(2)
        >>> m
        RMSNorm((2,), eps=None, elementwise_affine=True)
        >>> m(torch.tensor([[3., 4.]]))
        tensor([[0.8485, 1.1314]], grad_fn=<MulBackward0>)
    """

    def __init__(self, normalized_shape, eps: float | None = None, elementwise_affine: bool = True, device=None,
                 dtype=None) -> None:
        super().__init__()
        _normalized_shape(self, normalized_shape, eps, elementwise_affine)
        if elementwise_affine:
            self.weight = Parameter(empty(self.normalized_shape, device=device, dtype=dtype))
        else:
            self.register_parameter("weight", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        if self.elementwise_affine:
            init.ones_(self.weight)

    def forward(self, x: Tensor) -> Tensor:
        return F.rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self) -> str:
        return "{normalized_shape}, eps={eps}, elementwise_affine={elementwise_affine}".format(**self.__dict__)
