"""Power-average pooling, local response normalisation and the Gumbel-softmax of ``torch.nn.functional``,
written after torch/nn/functional.py with other differentiable ops (pow, avg_pool, pad, softmax)."""
from __future__ import annotations

import warnings

from ..tensor import Tensor
from ._registry import OpDef, register

__all__ = ["lp_pool1d", "lp_pool2d", "local_response_norm", "gumbel_softmax"]

# a power, an average pool (a float32 window sum) and a root: a few ulps of O(1) values
for _n in ("lp_pool1d", "lp_pool2d"):
    register(OpDef(_n, "nn", None, None, tol=(1e-5, 1e-6), doc="(sum of x^p over the window)^(1/p)"))
register(OpDef("local_response_norm", "nn", None, None, tol=(1e-5, 1e-6), extra={"messages": True},
               doc="x / (k + alpha * mean of x^2 over size neighbouring channels)^beta"))
register(OpDef("gumbel_softmax", "nn", None, None, tol=(1e-5, 1e-6),
               doc="softmax((logits + Gumbel noise) / tau), optionally one-hot (straight-through)"))


def _pair(v) -> tuple:
    return tuple(v) if isinstance(v, (tuple, list)) else (v, v)


def _lp_root(out: Tensor, norm_type: float, window: int) -> Tensor:
    from .unary import relu
    return (out.sign() * relu(out.abs())).mul(window).pow(1.0 / norm_type)


def lp_pool1d(input: Tensor, norm_type: float, kernel_size: int, stride=None, ceil_mode: bool = False) -> Tensor:
    """Power-average pooling over (N, C, L): ``(sum over the window of x^p)^(1/p)``; ``p = inf`` is max
    pooling of ``|x|``.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.lp_pool1d(torch.tensor([[[3., 4., 1.]]]), 2, 2).tolist()
        [[[5.0]]]
    """
    from .pooling import avg_pool1d, max_pool1d
    if norm_type == float("inf"):
        return max_pool1d(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if norm_type == -float("inf"):
        return -max_pool1d(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    k = kernel_size[0] if isinstance(kernel_size, (tuple, list)) else kernel_size
    out = avg_pool1d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    return _lp_root(out, norm_type, k)


def lp_pool2d(input: Tensor, norm_type: float, kernel_size, stride=None, ceil_mode: bool = False) -> Tensor:
    """Power-average pooling over (N, C, H, W): ``(sum over the window of x^p)^(1/p)``.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.lp_pool2d(torch.tensor([[[[1., 2.], [2., 4.]]]]), 2, 2).tolist()
        [[[[5.0]]]]
    """
    from .pooling import avg_pool2d, max_pool2d
    kw, kh = _pair(kernel_size)
    if norm_type == float("inf"):
        return max_pool2d(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if norm_type == -float("inf"):
        return -max_pool2d(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    out = avg_pool2d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    return _lp_root(out, norm_type, kw * kh)


def local_response_norm(input: Tensor, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0) -> Tensor:
    """Local response normalisation across channels (dim 1):
    ``x / (k + alpha * mean(x^2 over size channels centred on each))^beta``, zeros beyond the edges.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.local_response_norm(torch.ones(1, 2, 1), 2, alpha=1.0, beta=1.0).tolist()
        [[[0.6666666865348816], [0.5]]]
    """
    from .pooling import avg_pool2d
    from .shape import pad
    dim = input.dim()
    if dim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality                          input (got {dim} dimensions)")
    if input.numel() == 0:
        return input
    sizes = tuple(input.shape)
    div = input.mul(input).reshape(sizes[0], 1, sizes[1], -1)
    div = pad(div, (0, 0, size // 2, (size - 1) // 2))
    div = avg_pool2d(div, (size, 1), stride=1).reshape(sizes)
    return input / div.mul(alpha).add(k).pow(beta)


def gumbel_softmax(logits: Tensor, tau: float = 1, hard: bool = False, eps: float = 1e-10, dim: int = -1) -> Tensor:
    """A sample from the Gumbel-softmax distribution: ``softmax((logits + g) / tau)`` with ``g`` Gumbel(0, 1)
    noise; ``hard=True`` returns the one-hot of the largest entry with the soft sample's gradient.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> y = F.gumbel_softmax(torch.zeros(2, 5), hard=True)
        >>> y.sum(-1).tolist(), sorted(set(y.flatten().tolist()))
        ([1.0, 1.0], [0.0, 1.0])
    """
    from .random import rand
    if eps != 1e-10:
        warnings.warn("`eps` parameter is deprecated and has no effect.", stacklevel=2)
    u = rand(tuple(logits.shape), dtype=logits.dtype, device=logits.device)
    gumbels = -(-(1.0 - u).log()).clamp_min(1e-30).log()   # -log(Exponential(1)) ~ Gumbel(0, 1)
    y_soft = ((logits + gumbels) / tau).softmax(dim)
    if not hard:
        return y_soft
    from .creation import zeros_like
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = zeros_like(logits).scatter(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft
