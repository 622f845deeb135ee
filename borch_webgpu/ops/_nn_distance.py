"""Distances of ``torch.nn.functional``: normalize, cosine_similarity, pairwise_distance, written with
differentiable ops (norms, divisions, sums) with PyTorch's formulas, so autograd gives the gradients
on both devices."""
from __future__ import annotations

from .. import _dtype, autograd
from ..tensor import Tensor
from ._registry import OpDef, api, register

__all__ = ["normalize", "cosine_similarity", "pairwise_distance"]

# a norm (a float32 sum of squares) and a division: a few ulps of O(1) values
register(OpDef("normalize", "nn", None, None, tol=(1e-5, 1e-6), doc="x / max(||x||_p, eps) along dim"))
register(OpDef("cosine_similarity", "nn", None, None, tol=(1e-5, 1e-6), extra={"messages": True},
               doc="sum((x1 / max(||x1||, eps)) * (x2 / max(||x2||, eps))) along dim"))
register(OpDef("pairwise_distance", "nn", None, None, tol=(1e-5, 1e-6),
               doc="||x1 - x2 + eps||_p along the last dim"))

_NAMES = _dtype.SCALAR_NAMES


def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12, out: Tensor | None = None) -> Tensor:
    """``input / max(||input||_p, eps)`` along ``dim``: unit vectors (PyTorch's ``F.normalize``).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.normalize(torch.tensor([[3., 4.]])).tolist()
        [[0.6000000238418579, 0.800000011920929]]
    """
    from .reduce import norm
    denom = norm(input, p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    res = input / denom
    if out is not None:
        from .memory import assign
        assign(out, res)
        return out
    return res


def _clamped_norm(x: Tensor, dim: int, eps: float) -> Tensor:
    """``||x||`` along dim (keepdim) raised to at least eps, the raise outside autograd (as PyTorch's
    in-place ``clamp_min_`` under no_grad: the gradient flows as if unclamped)."""
    from .reduce import norm
    n = norm(x, 2, dim, keepdim=True)
    with autograd.no_grad():
        lift = n.detach().clamp_min(eps) - n.detach()
    return n + lift


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """Cosine of the angle between ``x1`` and ``x2`` along ``dim`` (broadcast): each is divided by its
    norm (at least ``eps``) first, so the result stays in [-1, 1].

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.cosine_similarity(torch.tensor([[1., 0.], [1., 1.]]), torch.tensor([[0., 1.], [2., 2.]])).tolist()
        [0.0, 0.9999999403953552]
    """
    from .elementwise import promote
    dt = promote([x1, x2])
    if not dt.is_floating_point:
        raise RuntimeError(f"expected common dtype to be floating point, yet common dtype is {_NAMES[dt.name]}")
    a, b = x1.to(dt), x2.to(dt)
    from ._nn_loss import _broadcast_tensors
    shape = _broadcast_tensors(tuple(a.shape), tuple(b.shape))
    a, b = a.expand(shape), b.expand(shape)
    return ((a / _clamped_norm(a, dim, eps)) * (b / _clamped_norm(b, dim, eps))).sum(dim)


def pairwise_distance(x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> Tensor:
    """``||x1 - x2 + eps||_p`` over the last dimension (of the broadcast shape).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.pairwise_distance(torch.tensor([[0., 0.]]), torch.tensor([[3., 4.]]), eps=0.0).tolist()
        [5.0]
    """
    from .reduce import norm
    last = max(x1.dim(), x2.dim()) - 1
    return norm(x1 - x2 + eps, p, last, keepdim=keepdim)


api("cosine_similarity", cosine_similarity, tensor=False)
api("pairwise_distance", pairwise_distance, tensor=False)
