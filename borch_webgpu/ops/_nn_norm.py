"""Normalisation layers of ``torch.nn.functional``: batch_norm, layer_norm, group_norm, instance_norm.

Each is written with differentiable ops: the mean, the centred values, the biased variance
(``mean(xc * xc)``, two passes, as exact as float32 allows) and ``rsqrt``, so that autograd gives
the gradients (and double gradients). Running statistics are updated in place without autograd,
with the unbiased variance, as PyTorch does."""
from __future__ import annotations

import math

from .. import autograd
from ..tensor import Tensor
from ._nn_bn import batch_norm_eval, batch_norm_train, fused_ok
from ._registry import OpDef, register

__all__ = ["batch_norm", "layer_norm", "group_norm", "instance_norm"]

# Normalised outputs are O(1) (|y| <~ 4): float32 mean/variance sums and rsqrt give a few ulps of
# relative error in the scale, ~2e-6 absolute at |y| = 4; (1e-5, 1e-5) leaves a 5x margin.
_NORM_TOL = (1e-5, 1e-5)
for _n, _d in (("batch_norm", "per-channel statistics over (N, *), running stats updated in place"),
               ("layer_norm", "statistics over the last dims"),
               ("group_norm", "statistics over (C / G, *) per group"),
               ("instance_norm", "statistics over (*) per sample and channel")):
    register(OpDef(_n, "nn", None, None, tol=_NORM_TOL, doc=_d))


def _moments(x: Tensor, dims):
    """(mean, centred x, biased variance), keepdim, all differentiable."""
    mean = x.mean(dims, keepdim=True)
    xc = x - mean
    return mean, xc, (xc * xc).mean(dims, keepdim=True)


def _channel_shape(x: Tensor) -> tuple:
    return (1, x.shape[1]) + (1,) * (x.dim() - 2)


def _affine(y: Tensor, weight, bias, shape) -> Tensor:
    if weight is not None:
        y = y * weight.reshape(shape)
    if bias is not None:
        y = y + bias.reshape(shape)
    return y


def _verify_batch_size(size) -> None:
    prod = size[0]
    for s in size[2:]:
        prod *= s
    if prod == 1:
        from ..tensor import Size
        raise ValueError(f"Expected more than 1 value per channel when training, got input size {Size(size)}")


def _check_features(name: str, t, n: int) -> None:
    if t is not None and t.numel() != n:
        raise RuntimeError(f"{name} should contain {n} elements not {t.numel()}")


def _update(running: Tensor, batch: Tensor, momentum: float) -> None:
    """running = (1 - momentum) * running + momentum * batch, in place: two kernels (the second,
    add with alpha, writes ``running`` directly)."""
    with autograd.no_grad():
        (running * (1.0 - momentum)).add(batch.detach().reshape(running.shape), alpha=momentum, out=running)


def batch_norm(input: Tensor, running_mean: Tensor | None, running_var: Tensor | None, weight: Tensor | None = None,
               bias: Tensor | None = None, training: bool = False, momentum: float = 0.1,
               eps: float = 1e-5, *, _num_batches_tracked: Tensor | None = None) -> Tensor:
    """Normalise each channel (dim 1) of ``input`` (N, C, *): with the batch's statistics when ``training``
    (and update ``running_mean``/``running_var`` in place, the variance unbiased), else with the running ones.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> x = torch.tensor([[1., 10.], [3., 30.]])
        >>> rm, rv = torch.zeros(2), torch.ones(2)
        >>> F.batch_norm(x, rm, rv, training=True, eps=1e-12).tolist()
        [[-1.0, -1.0], [1.0, 1.0]]
        >>> rm.tolist(), rv.tolist()
        ([0.20000000298023224, 2.0], [1.100000023841858, 20.899999618530273])
    """
    if training:
        _verify_batch_size(tuple(input.shape))
    if training and eps <= 0.0:
        raise ValueError(f"batch_norm eps must be positive during training, but got {eps}")
    elif eps < 0.0:
        raise ValueError(f"batch_norm eps must be non-negative, but got {eps}")
    c = input.shape[1] if input.dim() >= 2 else 0  # PyTorch reads 0 channels from a 1-D input
    if running_mean is not None:
        _check_features("running_mean", running_mean, c)
    elif not training:
        raise RuntimeError("running_mean must be defined in evaluation mode")
    if running_var is not None:
        _check_features("running_var", running_var, c)
    elif not training:
        raise RuntimeError("running_var must be defined in evaluation mode")
    _check_features("weight", weight, c)
    _check_features("bias", bias, c)
    if input.dim() < 2:
        raise ValueError(f"batch_norm: expected an input of at least 2 dims (N, C, *), got shape {tuple(input.shape)}")
    if fused_ok(input, weight, bias, running_mean, running_var) and isinstance(momentum, (int, float)):
        # two kernels each way (ops/_nn_bn.py); a bad momentum gets the composite's TypeError below
        if training:
            return batch_norm_train(input, running_mean, running_var, weight, bias, momentum, eps,
                                    _num_batches_tracked)
        return batch_norm_eval(input, running_mean, running_var, weight, bias, eps)
    if _num_batches_tracked is not None:
        _num_batches_tracked.add_(1)
    shape = _channel_shape(input)
    if training:
        dims = [0] + list(range(2, input.dim()))
        mean, xc, var = _moments(input, dims)
        y = xc * (var + eps).rsqrt()
        n = input.numel() // c
        if running_mean is not None:
            _update(running_mean, mean, momentum)
        if running_var is not None:
            _update(running_var, var * (n / (n - 1)), momentum)
    else:
        y = (input - running_mean.reshape(shape)) * (running_var.reshape(shape) + eps).rsqrt()
    return _affine(y, weight, bias, shape)


def layer_norm(input: Tensor, normalized_shape, weight: Tensor | None = None, bias: Tensor | None = None,
               eps: float = 1e-5) -> Tensor:
    """Normalise over the last ``len(normalized_shape)`` dims, then ``* weight + bias`` (both of that shape).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.layer_norm(torch.tensor([[1., 3.]]), (2,), eps=0.0).tolist()
        [[-1.0, 1.0]]
    """
    ns = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    k = len(ns)
    if k == 0 or input.dim() < k or tuple(input.shape[-k:]) != ns:
        raise RuntimeError(f"Given normalized_shape={list(ns)}, expected input with shape "
                           f"[*, {', '.join(str(s) for s in ns)}], but got input of size{list(input.shape)}")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and tuple(t.shape) != ns:
            raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but got {name} of shape "
                               f"{list(t.shape)} and normalized_shape = {list(ns)}")
    dims = list(range(input.dim() - k, input.dim()))
    _, xc, var = _moments(input, dims)
    return _affine(xc * (var + eps).rsqrt(), weight, bias, ns)


def group_norm(input: Tensor, num_groups: int, weight: Tensor | None = None, bias: Tensor | None = None,
               eps: float = 1e-5) -> Tensor:
    """Split the channels (dim 1) into ``num_groups`` groups and normalise each group of each sample."""
    if input.dim() < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received {input.dim()}")
    n, c = input.shape[0], input.shape[1]
    _verify_batch_size([n * c // num_groups, num_groups] + list(input.shape[2:]))
    if c % num_groups != 0:
        raise RuntimeError(f"Expected number of channels in input to be divisible by num_groups, but got input of "
                           f"shape {list(input.shape)} and num_groups={num_groups}")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and (t.dim() != 1 or t.numel() != c):
            raise RuntimeError(f"Expected {name} to be a vector of size equal to the number of channels in input, "
                               f"but got {name} of shape {list(t.shape)} and input of shape {list(input.shape)}")
    if input.numel() == 0:
        return _affine(input * 1.0, weight, bias, _channel_shape(input))
    x = input.reshape(n, num_groups, -1)
    _, xc, var = _moments(x, [2])
    y = (xc * (var + eps).rsqrt()).reshape(input.shape)
    return _affine(y, weight, bias, _channel_shape(input))


def instance_norm(input: Tensor, running_mean: Tensor | None = None, running_var: Tensor | None = None,
                  weight: Tensor | None = None, bias: Tensor | None = None, use_input_stats: bool = True,
                  momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """Normalise each channel of each sample over its spatial dims (N, C, *). With running stats and
    ``use_input_stats``, they are updated with the batch average of the per-instance statistics."""
    if input.dim() < 2:
        raise ValueError(f"instance_norm: expected an input of at least 2 dims (N, C, *), got shape "
                         f"{tuple(input.shape)}")
    if use_input_stats:
        prod = math.prod(input.shape[2:])
        if prod == 1:
            from ..tensor import Size
            raise ValueError(f"Expected more than 1 spatial element when training, got input size "
                             f"{Size(input.shape)}")
    c = input.shape[1]
    for name, t in (("running_mean", running_mean), ("running_var", running_var), ("weight", weight),
                    ("bias", bias)):
        _check_features(name, t, c)
    shape = _channel_shape(input)
    if use_input_stats:
        dims = list(range(2, input.dim()))
        mean, xc, var = _moments(input, dims)
        y = xc * (var + eps).rsqrt()
        s = math.prod(input.shape[2:])
        if running_mean is not None:
            _update(running_mean, mean.detach().mean(0), momentum)
        if running_var is not None:
            _update(running_var, (var.detach() * (s / (s - 1))).mean(0), momentum)
    else:
        if running_mean is None or running_var is None:
            raise RuntimeError("Expected running_mean and running_var to be defined when use_input_stats is false")
        y = (input - running_mean.reshape(shape)) * (running_var.reshape(shape) + eps).rsqrt()
    return _affine(y, weight, bias, shape)
