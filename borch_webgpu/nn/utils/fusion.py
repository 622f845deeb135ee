"""``torch.nn.utils.fusion``: fold an eval-mode BatchNorm into the convolution or linear layer before it.

A BatchNorm in eval mode is an affine map per channel, ``y = (x - mean) / sqrt(var + eps) * gamma + beta``,
so the layer before it can absorb it: its weight is scaled per output channel and its bias shifted.
The fused module is a new copy (``copy.deepcopy``) holding new ``Parameter``s; the originals are untouched.
"""
from __future__ import annotations

import copy

from ...ops.creation import ones_like, zeros_like
from ...ops.unary import rsqrt
from ...tensor import Tensor
from ..parameter import Parameter

__all__ = ["fuse_conv_bn_eval", "fuse_conv_bn_weights", "fuse_linear_bn_eval", "fuse_linear_bn_weights"]


def fuse_conv_bn_eval(conv, bn, transpose: bool = False):
    """Fuse a convolution and the BatchNorm after it into a single, new convolution module.

    Args:
        conv (nn.Conv1d / Conv2d / ConvTranspose1d / ConvTranspose2d): the convolution, in eval mode.
        bn (nn.BatchNorm1d / 2d / 3d): the BatchNorm, in eval mode, with its running statistics.
        transpose (bool): ``True`` for a transposed convolution (its weight is (in, out / groups, ...)).

    Returns:
        a deep copy of ``conv`` whose ``weight`` and ``bias`` are the fused ones (a ``bias`` is
        always present afterwards).

    Example::

        >>> import borch_webgpu as torch
        >>> conv, bn = torch.nn.Conv2d(3, 4, 3, bias=False).eval(), torch.nn.BatchNorm2d(4).eval()
        >>> fused = torch.nn.utils.fuse_conv_bn_eval(conv, bn)
        >>> fused
        Conv2d(3, 4, kernel_size=(3, 3), stride=(1, 1))
        >>> x = torch.randn(1, 3, 5, 5)
        >>> torch.allclose(fused(x), bn(conv(x)), atol=1e-6)
        True
    """
    if conv.training or bn.training:
        raise AssertionError("Fusion only for eval!")
    fused_conv = copy.deepcopy(conv)
    if bn.running_mean is None or bn.running_var is None:
        raise AssertionError("bn.running_mean and bn.running_var must not be None")
    fused_conv.weight, fused_conv.bias = fuse_conv_bn_weights(
        fused_conv.weight, fused_conv.bias, bn.running_mean, bn.running_var, bn.eps, bn.weight, bn.bias, transpose)
    return fused_conv


def fuse_conv_bn_weights(conv_w: Tensor, conv_b: Tensor | None, bn_rm: Tensor, bn_rv: Tensor, bn_eps: float,
                         bn_w: Tensor | None, bn_b: Tensor | None, transpose: bool = False
                         ) -> tuple[Parameter, Parameter]:
    """The fused convolution weight and bias, as two new ``Parameter``s.

    ``weight * (bn_w / sqrt(bn_rv + bn_eps))`` per output channel and
    ``(conv_b - bn_rm) / sqrt(bn_rv + bn_eps) * bn_w + bn_b``. A missing ``conv_b`` counts as zeros,
    a missing ``bn_w`` as ones and a missing ``bn_b`` as zeros. The weight requires grad as ``conv_w``
    does, the bias as ``conv_b`` does (so a convolution without a bias gets one that does not).

    Example::

        >>> import borch_webgpu as torch
        >>> w, b = torch.nn.utils.fuse_conv_bn_weights(torch.ones(2, 1, 1, 1), None, torch.tensor([1., 2.]),
        ...                                            torch.tensor([3., 15.]), 1.0, None, None)
        >>> w.flatten().tolist(), b.tolist(), b.requires_grad
        ([0.5, 0.25], [-0.5, -0.5], False)
    """
    conv_weight_dtype = conv_w.dtype
    conv_bias_dtype = conv_b.dtype if conv_b is not None else conv_weight_dtype
    if conv_b is None:
        conv_b = zeros_like(bn_rm)
    if bn_w is None:
        bn_w = ones_like(bn_rm)
    if bn_b is None:
        bn_b = zeros_like(bn_rm)
    bn_var_rsqrt = rsqrt(bn_rv + bn_eps)
    if transpose:
        shape = [1, -1] + [1] * (len(conv_w.shape) - 2)
    else:
        shape = [-1, 1] + [1] * (len(conv_w.shape) - 2)
    fused_conv_w = (conv_w * (bn_w * bn_var_rsqrt).reshape(shape)).to(dtype=conv_weight_dtype)
    fused_conv_b = ((conv_b - bn_rm) * bn_var_rsqrt * bn_w + bn_b).to(dtype=conv_bias_dtype)
    return Parameter(fused_conv_w, conv_w.requires_grad), Parameter(fused_conv_b, conv_b.requires_grad)


def fuse_linear_bn_eval(linear, bn):
    """Fuse a ``Linear`` and the BatchNorm after it into a single, new ``Linear``.

    ``bn.num_features`` must equal ``linear.out_features`` (or be 1); both modules in eval mode.

    Example::

        >>> import borch_webgpu as torch
        >>> lin, bn = torch.nn.Linear(5, 3).eval(), torch.nn.BatchNorm1d(3).eval()
        >>> fused = torch.nn.utils.fuse_linear_bn_eval(lin, bn)
        >>> x = torch.randn(2, 5)
        >>> fused, torch.allclose(fused(x), bn(lin(x)), atol=1e-6)
        (Linear(in_features=5, out_features=3, bias=True), True)
    """
    if linear.training or bn.training:
        raise AssertionError("Fusion only for eval!")
    fused_linear = copy.deepcopy(linear)
    # the BN's channel dim must broadcast against the linear's last dim: equal, or a single feature
    if linear.out_features != bn.num_features and bn.num_features != 1:
        raise AssertionError(
            f"To fuse, linear.out_features == bn.num_features or bn.num_features == 1, "
            f"got linear.out_features={linear.out_features} and bn.num_features={bn.num_features}")
    if bn.running_mean is None or bn.running_var is None:
        raise AssertionError("bn.running_mean and bn.running_var must not be None")
    fused_linear.weight, fused_linear.bias = fuse_linear_bn_weights(
        fused_linear.weight, fused_linear.bias, bn.running_mean, bn.running_var, bn.eps, bn.weight, bn.bias)
    return fused_linear


def fuse_linear_bn_weights(linear_w: Tensor, linear_b: Tensor | None, bn_rm: Tensor, bn_rv: Tensor, bn_eps: float,
                           bn_w: Tensor, bn_b: Tensor) -> tuple[Parameter, Parameter]:
    """The fused linear weight and bias, as two new ``Parameter``s: ``linear_w * scale[:, None]`` and
    ``(linear_b - bn_rm) * scale + bn_b`` with ``scale = bn_w / sqrt(bn_rv + bn_eps)`` (a missing
    ``linear_b`` counts as zeros; ``bn_w`` and ``bn_b`` are required, as in PyTorch).

    Example::

        >>> import borch_webgpu as torch
        >>> w, b = torch.nn.utils.fuse_linear_bn_weights(torch.ones(2, 3), torch.zeros(2), torch.zeros(2),
        ...                                              torch.tensor([3., 8.]), 1.0, torch.ones(2), torch.ones(2))
        >>> w.tolist(), b.tolist()
        ([[0.5, 0.5, 0.5], [0.3333333432674408, 0.3333333432674408, 0.3333333432674408]], [1.0, 1.0])
    """
    linear_weight_dtype = linear_w.dtype
    linear_bias_dtype = linear_b.dtype if linear_b is not None else linear_weight_dtype
    if linear_b is None:
        linear_b = zeros_like(bn_rm)
    bn_scale = bn_w * rsqrt(bn_rv + bn_eps)
    fused_w = linear_w * bn_scale.unsqueeze(-1).to(dtype=linear_weight_dtype)
    fused_b = ((linear_b - bn_rm) * bn_scale + bn_b).to(dtype=linear_bias_dtype)
    return Parameter(fused_w, linear_w.requires_grad), Parameter(fused_b, linear_b.requires_grad)
