"""More of ``torch.nn.functional``, written after torch/nn/functional.py with other differentiable ops: the
alpha and 3-D dropouts, channel shuffles, pdist, conv_transpose1d, adaptive_max_pool1d, the ``*_with_indices``
pools and the deprecated upsample_bilinear / upsample_nearest."""
from __future__ import annotations

import math
import warnings

import numpy as np

from ..tensor import Tensor
from ._registry import OpDef, register

__all__ = ["alpha_dropout", "feature_alpha_dropout", "dropout3d", "channel_shuffle", "native_channel_shuffle", "pdist",
           "conv_transpose1d", "adaptive_max_pool1d", "max_pool1d_with_indices", "max_pool2d_with_indices",
           "max_pool3d_with_indices", "adaptive_max_pool1d_with_indices", "adaptive_max_pool2d_with_indices",
           "adaptive_max_pool3d_with_indices", "upsample_bilinear", "upsample_nearest"]

register(OpDef("alpha_dropout", "nn", None, None, tol=(1e-6, 1e-6), extra={"messages": True},
               doc="dropout that keeps SELU's mean and variance (random: statistics are tested)"))
register(OpDef("channel_shuffle", "nn", None, None, tol=(0, 0), extra={"messages": True},
               doc="(N, g*k, *) -> (N, k*g, *): the channels of g groups interleaved"))
register(OpDef("pdist", "nn", None, None, tol=(1e-5, 1e-6), extra={"messages": True},
               doc="p-norm distances between all pairs of rows (the upper triangle, row by row)"))
register(OpDef("conv_transpose1d", "nn", None, None, tol=(1e-5, 1e-5), extra={"messages": True},
               doc="1-D transposed convolution (a 2-D one over (N, C, 1, L))"))
register(OpDef("adaptive_max_pool1d", "nn", None, None, tol=(0, 0), extra={"messages": True},
               doc="max over windows that cover the length in output_size steps"))
register(OpDef("upsample_bilinear", "nn", None, None, tol=(1e-5, 1e-6), extra={"messages": True},
               doc="interpolate(mode='bilinear', align_corners=True), deprecated (with upsample_nearest)"))

_SELU_ALPHA = 1.7580993408473766  # -SELU's saturation value: alpha * scale


def _check_p(p) -> None:
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def _alpha(input: Tensor, p: float, train: bool, feature: bool, inplace: bool) -> Tensor:
    """ATen's _dropout_impl for alpha dropout: a kept value becomes a*x + alpha*a*p, a dropped one
    -alpha*a*(1-p), so that SELU outputs keep mean 0 and variance 1."""
    from .random import rand
    if p == 0 or not train or input.numel() == 0:
        return input
    if feature and input.dim() < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    if p == 1:
        return input.mul_(0.0) if inplace else input * 0.0
    shape = tuple(input._shape[:2]) + (1,) * (input.dim() - 2) if feature else tuple(input._shape)
    keep = (rand(shape, device=input.device) < (1.0 - p)).to(input.dtype)
    a = 1.0 / math.sqrt((_SELU_ALPHA * _SELU_ALPHA * p + 1) * (1 - p))
    b = (keep - 1) * (_SELU_ALPHA * a) + _SELU_ALPHA * a * p
    if inplace:
        return input.mul_(keep * a).add_(b)
    return input * (keep * a) + b


def alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False, inplace: bool = False) -> Tensor:
    """Dropout for SELU networks: dropped elements take SELU's negative saturation value and the result is
    scaled and shifted to keep zero mean and unit variance (only when ``training``; PyTorch's default is False).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> x = torch.randn(10000)
        >>> F.alpha_dropout(x, 0.2) is x
        True
        >>> y = F.alpha_dropout(x, 0.2, training=True)
        >>> abs(y.mean().item()) < 0.05 and abs(y.std().item() - 1) < 0.05
        True
    """
    _check_p(p)
    return _alpha(input, p, training, False, inplace)


def feature_alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False, inplace: bool = False) -> Tensor:
    """:func:`alpha_dropout` of whole channels: one draw per (sample, channel) of an (N, C, ...) input.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> y = F.feature_alpha_dropout(torch.zeros(4, 100, 3), 0.5, training=True)
        >>> bool((y[:, :, 0] == y[:, :, 2]).all())
        True
    """
    _check_p(p)
    return _alpha(input, p, training, True, inplace)


def dropout3d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero whole channels of (N, C, D, H, W) or (C, D, H, W) inputs with probability ``p`` and scale the rest by
    ``1 / (1 - p)`` (other ranks warn, as in PyTorch).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> y = F.dropout3d(torch.ones(2, 8, 2, 2, 2))
        >>> sorted(set(y.flatten().tolist()))
        [0.0, 2.0]
    """
    from .nn_ops import _feature_dropout
    _check_p(p)
    d = input.dim()
    if d not in (4, 5):
        warnings.warn(f"dropout3d: Received a {d}-D input to dropout3d, which is deprecated and will result in an "
                      "error in a future release. To retain the behavior and silence this warning, please use dropout "
                      "instead. Note that dropout3d exists to provide channel-wise dropout on inputs with 3 spatial "
                      "dimensions, a channel dimension, and an optional batch dimension (i.e. 4D or 5D inputs).",
                      stacklevel=2)
    if d == 5:
        return _feature_dropout(input, p, training, inplace)
    if not training or p == 0.0 or input.numel() == 0:
        return input
    return _feature_dropout(input.unsqueeze(0), p, training, inplace).squeeze(0)


def channel_shuffle(input: Tensor, groups: int) -> Tensor:
    """Split the channels (dim 1) into ``groups`` groups and interleave them: (N, g*k, *) viewed as (N, g, k, *),
    transposed to (N, k, g, *) (ShuffleNet).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.channel_shuffle(torch.arange(4.).reshape(1, 4, 1), 2).flatten().tolist()
        [0.0, 2.0, 1.0, 3.0]
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"channel_shuffle(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    if input.dim() <= 2:
        raise RuntimeError(f"channel_shuffle expects input with > 2 dims, but got input with sizes {list(input._shape)}")
    if groups <= 0:
        raise RuntimeError(f"Number of groups to divide channels in must be positive. Value of groups:{groups}")
    c = input._shape[1]
    if c % groups:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got {c} channels and {groups} groups.")
    n, rest = input._shape[0], tuple(input._shape[2:])
    return input.reshape((n, groups, c // groups) + rest).transpose(1, 2).reshape(tuple(input._shape))


def native_channel_shuffle(input: Tensor, groups: int) -> Tensor:
    """:func:`channel_shuffle` (PyTorch's native kernel of the same operation).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.native_channel_shuffle(torch.arange(6.).reshape(1, 6, 1), 3).flatten().tolist()
        [0.0, 2.0, 4.0, 1.0, 3.0, 5.0]
    """
    return channel_shuffle(input, groups)


def pdist(input: Tensor, p: float = 2) -> Tensor:
    """The ``p``-norm distance between every pair of rows of an (N, M) input: N*(N-1)/2 values, in the order of
    the upper triangle read row by row (as ``scipy.spatial.distance.pdist``).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.pdist(torch.tensor([[0., 0.], [3., 4.], [6., 8.]]))
        tensor([ 5., 10.,  5.])
    """
    from .reduce import norm
    if not isinstance(input, Tensor):
        raise TypeError(f"pdist(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    if input.dim() != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.dim()}D")
    if not input.dtype.is_floating_point:
        raise RuntimeError("pdist only supports floating-point dtypes")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    n = input._shape[0]
    i, j = np.triu_indices(n, 1)
    if i.size == 0:
        return input.new_zeros((0,))
    from .creation import tensor
    ii = tensor(i.astype(np.int64), device=input.device)
    jj = tensor(j.astype(np.int64), device=input.device)
    return norm(input.index_select(0, ii) - input.index_select(0, jj), float(p), dim=-1)


def conv_transpose1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0, output_padding=0,
                     groups: int = 1, dilation=1) -> Tensor:
    """1-D transposed convolution of (N, C_in, L) or (C_in, L) input with a (C_in, C_out / groups, k) weight
    (the gradient of conv1d with respect to its input).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.conv_transpose1d(torch.ones(1, 1, 3), torch.ones(1, 1, 2))
        tensor([[[1., 2., 2., 1.]]])
    """
    from .conv import conv_transpose2d

    def one(v, name):
        if isinstance(v, (tuple, list)):
            if len(v) != 1:
                raise RuntimeError(f"conv_transpose1d: expected {name} to be a single integer value or a list of 1 "
                                   f"values to match the convolution dimensions, but got {name}={list(v)}")
            return int(v[0])
        return int(v)

    if not isinstance(input, Tensor) or input.dim() not in (2, 3):
        shape = list(input._shape) if isinstance(input, Tensor) else type(input).__name__
        raise RuntimeError(f"Expected 2D (unbatched) or 3D (batched) input to conv_transpose1d, but got input of "
                           f"size: {shape}")
    if not isinstance(weight, Tensor) or weight.dim() != 3:
        raise RuntimeError(f"conv_transpose1d: expected a 3-D weight (in_channels, out_channels / groups, k), got "
                           f"{list(weight._shape) if isinstance(weight, Tensor) else type(weight).__name__}")
    batched = input.dim() == 3
    x = (input if batched else input.unsqueeze(0)).unsqueeze(2)
    y = conv_transpose2d(x, weight.unsqueeze(2), bias, (1, one(stride, "stride")), (0, one(padding, "padding")),
                         (0, one(output_padding, "output_padding")), groups, (1, one(dilation, "dilation"))).squeeze(2)
    return y if batched else y.squeeze(0)


def adaptive_max_pool1d(input: Tensor, output_size, return_indices: bool = False):
    """Max over the windows that cover an (N, C, L) or (C, L) input in ``output_size`` steps; with
    ``return_indices`` also the argmax positions along L (int64).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.adaptive_max_pool1d(torch.tensor([[[1., 3., 2., 5., 4.]]]), 2)
        tensor([[[3., 5.]]])
    """
    from .pooling import adaptive_max_pool2d
    if not isinstance(input, Tensor):
        raise TypeError(f"adaptive_max_pool1d(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    if input.dim() not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.dim()}-dimensional tensor for argument #1 "
                           "'self' (while checking arguments for adaptive_max_pool1d)")
    size = output_size[0] if isinstance(output_size, (tuple, list)) else output_size
    out = adaptive_max_pool2d(input.unsqueeze(-2), (1, size), return_indices)
    if return_indices:
        return out[0].squeeze(-2), out[1].squeeze(-2)
    return out.squeeze(-2)


def max_pool1d_with_indices(input: Tensor, kernel_size, stride=None, padding=0, dilation=1, ceil_mode: bool = False,
                            return_indices: bool = False):
    """``max_pool1d(..., return_indices=True)``: (values, int64 argmax positions), whatever ``return_indices`` says.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.max_pool1d_with_indices(torch.tensor([[[1., 3., 2., 0.]]]), 2)[1]
        tensor([[[1, 2]]])
    """
    from .pooling import max_pool1d
    return max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool2d_with_indices(input: Tensor, kernel_size, stride=None, padding=0, dilation=1, ceil_mode: bool = False,
                            return_indices: bool = False):
    """``max_pool2d(..., return_indices=True)``: (values, int64 flat argmax positions in each H*W plane).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.max_pool2d_with_indices(torch.tensor([[[[1., 3.], [4., 2.]]]]), 2)[1]
        tensor([[[[2]]]])
    """
    from .pooling import max_pool2d
    return max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool3d_with_indices(input: Tensor, kernel_size, stride=None, padding=0, dilation=1, ceil_mode: bool = False,
                            return_indices: bool = False):
    """``max_pool3d(..., return_indices=True)``: (values, int64 flat argmax positions in each D*H*W volume).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.max_pool3d_with_indices(torch.arange(8.).reshape(1, 1, 2, 2, 2), 2)[1]
        tensor([[[[[7]]]]])
    """
    from ._nn_3d import max_pool3d
    return max_pool3d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def adaptive_max_pool1d_with_indices(input: Tensor, output_size, return_indices: bool = False):
    """``adaptive_max_pool1d(..., return_indices=True)``.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.adaptive_max_pool1d_with_indices(torch.tensor([[[1., 3., 2., 5.]]]), 2)[1]
        tensor([[[1, 3]]])
    """
    return adaptive_max_pool1d(input, output_size, True)


def adaptive_max_pool2d_with_indices(input: Tensor, output_size, return_indices: bool = False):
    """``adaptive_max_pool2d(..., return_indices=True)``.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.adaptive_max_pool2d_with_indices(torch.tensor([[[[1., 3.], [4., 2.]]]]), 1)[1]
        tensor([[[[2]]]])
    """
    from .pooling import adaptive_max_pool2d
    return adaptive_max_pool2d(input, output_size, True)


def adaptive_max_pool3d_with_indices(input: Tensor, output_size, return_indices: bool = False):
    """``adaptive_max_pool3d(..., return_indices=True)``.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.adaptive_max_pool3d_with_indices(torch.arange(8.).reshape(1, 1, 2, 2, 2), 1)[1]
        tensor([[[[[7]]]]])
    """
    from ._nn_3d import adaptive_max_pool3d
    return adaptive_max_pool3d(input, output_size, True)


def upsample_bilinear(input: Tensor, size=None, scale_factor=None) -> Tensor:
    """Deprecated: ``interpolate(input, size, scale_factor, mode='bilinear', align_corners=True)`` (it warns, as
    in PyTorch).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.upsample_bilinear(torch.tensor([[[[0., 1.]]]]), size=(1, 3))
        tensor([[[[0.0000, 0.5000, 1.0000]]]])
    """
    from .upsample import interpolate
    warnings.warn("`nn.functional.upsample_bilinear` is deprecated. Use `nn.functional.interpolate` instead.",
                  stacklevel=2)
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


def upsample_nearest(input: Tensor, size=None, scale_factor=None) -> Tensor:
    """Deprecated: ``interpolate(input, size, scale_factor, mode='nearest')`` (it warns, as in PyTorch).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.upsample_nearest(torch.tensor([[[[0., 1.]]]]), scale_factor=2).shape
        torch.Size([1, 1, 2, 4])
    """
    from .upsample import interpolate
    warnings.warn("`nn.functional.upsample_nearest` is deprecated. Use `nn.functional.interpolate` instead.",
                  stacklevel=2)
    return interpolate(input, size, scale_factor, mode="nearest")
