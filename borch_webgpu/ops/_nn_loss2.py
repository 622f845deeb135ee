"""More losses of ``torch.nn.functional``, each written with differentiable ops after PyTorch's own
formulas (ATen's Loss.cpp and torch/nn/functional.py), with its checks and messages: poisson_nll_loss,
gaussian_nll_loss, margin_ranking_loss, hinge_embedding_loss, soft_margin_loss, multilabel_soft_margin_loss,
multilabel_margin_loss, multi_margin_loss, cosine_embedding_loss, triplet_margin_loss and
triplet_margin_with_distance_loss."""
from __future__ import annotations

import math

from .. import _dtype
from ..tensor import Tensor
from ._nn_distance import pairwise_distance
from ._nn_loss import _assert_all, _broadcast_tensors, _reduce, _reduction
from ._registry import OpDef, register

__all__ = ["poisson_nll_loss", "gaussian_nll_loss", "margin_ranking_loss", "hinge_embedding_loss",
           "soft_margin_loss", "multilabel_soft_margin_loss", "multilabel_margin_loss", "multi_margin_loss",
           "cosine_embedding_loss", "triplet_margin_loss", "triplet_margin_with_distance_loss"]

# elementwise terms (exp, log, log1p, clamps), then a float32 reduction: 1e-5 relative, 1e-6 absolute
for _n in __all__:
    register(OpDef(_n, "nn", None, None, tol=(1e-5, 1e-6), extra={"messages": True},
                   doc="a composite of elementwise ops and a reduction"))

_NAMES = _dtype.SCALAR_NAMES  # PyTorch's ScalarType names (Float, Byte, ...)


def _check_shapes(a: Tensor, b: Tensor) -> None:
    _broadcast_tensors(tuple(a.shape), tuple(b.shape))


def poisson_nll_loss(input: Tensor, target: Tensor, log_input: bool = True, full: bool = False,
                     size_average=None, eps: float = 1e-8, reduce=None, reduction: str = "mean") -> Tensor:
    """Poisson negative log-likelihood: ``exp(input) - target * input`` (``log_input``), else
    ``input - target * log(input + eps)``; ``full`` adds Stirling's term where ``target > 1``.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.poisson_nll_loss(torch.tensor([0., 0.]), torch.tensor([1., 2.])).item()
        1.0
    """
    from .elementwise import where
    reduction = _reduction(reduction, size_average, reduce)
    _check_shapes(target, input)
    loss = input.exp() - target * input if log_input else input - target * (input + eps).log()
    if full:
        stirling = target * target.log() - target + 0.5 * (2 * math.pi * target).log()
        loss = loss + where(target <= 1, 0.0, stirling)
    return _reduce(loss, reduction)


def gaussian_nll_loss(input: Tensor, target: Tensor, var, full: bool = False, eps: float = 1e-6,
                      reduction: str = "mean") -> Tensor:
    """Gaussian negative log-likelihood ``0.5 (log(var) + (input - target)^2 / var)`` (``var`` clamped at
    ``eps``, its clamp not differentiated); ``var`` may have one dimension fewer, or one of size 1.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.gaussian_nll_loss(torch.tensor([1., 3.]), torch.tensor([1., 1.]), torch.ones(2)).item()
        1.0
    """
    from .. import autograd
    from .creation import ones_like
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * ones_like(input)
    elif not isinstance(var, Tensor):  # PyTorch's torch.any(var < 0) refuses the bool
        raise TypeError(f"any() received an invalid combination of arguments - got ({type(var < 0).__name__}), "
                        "but expected one of:\n * (Tensor input, *, Tensor out = None)\n * (Tensor input, tuple of "
                        "ints dim = None, bool keepdim = False, *, Tensor out = None)\n * (Tensor input, int dim, "
                        "bool keepdim = False, *, Tensor out = None)\n")
    elif bool((var < 0).any()):
        raise ValueError("var has negative entry/entries")
    if tuple(var.shape) != tuple(input.shape):
        if tuple(input.shape[:-1]) == tuple(var.shape):
            var = var.unsqueeze(-1)
        elif not (input.dim() == var.dim()
                  and sum(y for x, y in zip(input.shape, var.shape) if x != y) == 1):
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    with autograd.no_grad():
        lift = var.detach().clamp_min(eps) - var.detach()
    var = var + lift
    loss = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction)


def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0, size_average=None,
                        reduce=None, reduction: str = "mean") -> Tensor:
    """``max(0, -target * (input1 - input2) + margin)``: ``target`` 1 says input1 should rank higher.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.margin_ranking_loss(torch.tensor([1., 2.]), torch.tensor([2., 1.]), torch.tensor([1., 1.])).item()
        0.5
    """
    reduction = _reduction(reduction, size_average, reduce)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(f"margin_ranking_loss : All input tensors should have same dimension but got sizes: "
                           f"input1: {input1.shape}, input2: {input2.shape}, target: {target.shape} ")
    d = input1 - input2
    return _reduce((-target * d + margin).clamp_min(0), reduction)


def hinge_embedding_loss(input: Tensor, target: Tensor, margin: float = 1.0, size_average=None, reduce=None,
                         reduction: str = "mean") -> Tensor:
    """``input`` where ``target == 1``, ``max(0, margin - input)`` where ``target == -1`` (PyTorch sums
    both terms for other target values).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.hinge_embedding_loss(torch.tensor([0.3, 0.2]), torch.tensor([1., -1.])).item()
        0.550000011920929
    """
    from .elementwise import where
    reduction = _reduction(reduction, size_average, reduce)
    _check_shapes(target, input)
    margin_clamp = (margin - input).clamp_min(0)
    loss = where(target != 1, margin_clamp, 0.0) + where(target != -1, input, 0.0)
    return _reduce(loss, reduction)


def soft_margin_loss(input: Tensor, target: Tensor, size_average=None, reduce=None,
                     reduction: str = "mean") -> Tensor:
    """Two-class logistic loss ``log(1 + exp(-target * input))``.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> round(F.soft_margin_loss(torch.tensor([0., 0.]), torch.tensor([1., -1.])).item(), 4)
        0.6931
    """
    from ._nn_loss import _not_differentiable
    reduction = _reduction(reduction, size_average, reduce)
    _check_shapes(input, target)
    _not_differentiable("soft_margin_loss", target=target)
    return _reduce((-input * target).exp().log1p(), reduction)


def multilabel_soft_margin_loss(input: Tensor, target: Tensor, weight: Tensor | None = None, size_average=None,
                                reduce=None, reduction: str = "mean") -> Tensor:
    """Binary cross-entropy of logits per class, averaged over the classes (the last dimension).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> round(F.multilabel_soft_margin_loss(torch.zeros(1, 3), torch.tensor([[1., 0., 1.]])).item(), 4)
        0.6931
    """
    from ._nn_loss import _legacy, _log_sigmoid
    if size_average is not None or reduce is not None:
        reduction = _legacy(size_average, reduce)
    loss = -(target * _log_sigmoid(input) + (1 - target) * _log_sigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    loss = loss.sum(class_dim) / input.shape[class_dim]
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    return _reduce(loss, reduction)


def _margin_frame(name: str, input: Tensor) -> tuple[int, int]:
    """(batch, classes) of a (C,), () or (N, C) input, with PyTorch's check."""
    nd = input.dim()
    if not ((nd == 2 and input.shape[1] != 0) or (nd == 1 and input.shape[0] != 0) or nd == 0):
        raise RuntimeError(f"Expected non-empty vector or matrix with optional 0-dim batch size, but got: "
                           f"{list(input.shape)}")
    if nd <= 1:
        return 1, (1 if nd == 0 else input.shape[0])
    return input.shape[0], input.shape[1]


def _long_target(target: Tensor) -> None:
    if target.dtype is not _dtype.int64:
        raise RuntimeError(f"expected scalar type Long but found {_NAMES.get(target.dtype.name, target.dtype.name)}")


def multilabel_margin_loss(input: Tensor, target: Tensor, size_average=None, reduce=None,
                           reduction: str = "mean") -> Tensor:
    """Multi-class multi-label hinge loss: ``target`` holds class indices, ended by the first -1; sums
    ``max(0, 1 - (x[j] - x[i]))`` over target classes j and non-target classes i, divided by C.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> x = torch.tensor([[0.1, 0.2, 0.4, 0.8]])
        >>> round(F.multilabel_margin_loss(x, torch.tensor([[3, 0, -1, 1]])).item(), 4)
        0.85
    """
    from .creation import zeros
    from .elementwise import where
    reduction = _reduction(reduction, size_average, reduce)
    n, c = _margin_frame("multilabel_margin_loss", input)
    _long_target(target)
    if input.dim() <= 1:
        ok = target.dim() <= 1 and target.numel() == c
    else:
        ok = target.dim() == 2 and target.shape[0] == n and target.shape[1] == c
    if not ok:
        raise RuntimeError(f"inconsistent target size: {list(target.shape)} for input of size: {list(input.shape)}")
    x, t = input.reshape(n, c), target.reshape(n, c)
    _assert_all((t < -1) | (t >= c), RuntimeError, "argument #2 'target' is out of range", "multilabel_margin_loss")
    valid = (t != -1).to(_dtype.int64).cumprod(1).to(x.dtype)            # slots before the first -1
    safe = where(t < 0, 0, t)
    is_target = zeros((n, c), dtype=x.dtype, device=x.device).scatter_add(1, safe, valid).clamp_max(1.0)
    xt = x.gather(1, safe)                                                # (n, slots)
    z = (1 - xt.unsqueeze(2) + x.unsqueeze(1)).clamp_min(0)                # (n, slots, classes)
    loss = (z * (valid.unsqueeze(2) * (1 - is_target).unsqueeze(1))).sum((1, 2)) / c
    if reduction == "none":
        return loss if target.dim() > 1 else loss.reshape(())
    return _reduce(loss, reduction)


def multi_margin_loss(input: Tensor, target: Tensor, p: int = 1, margin: float = 1.0,
                      weight: Tensor | None = None, size_average=None, reduce=None,
                      reduction: str = "mean") -> Tensor:
    """Multi-class hinge loss: ``sum_i max(0, margin - x[y] + x[i])^p`` over the classes ``i != y``
    (times ``weight[y]``), divided by the number of classes.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> x = torch.tensor([[0.1, 0.2, 0.4, 0.8]])
        >>> round(F.multi_margin_loss(x, torch.tensor([3])).item(), 4)
        0.325
    """
    from .elementwise import where
    reduction = _reduction(reduction, size_average, reduce)
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    n, c = _margin_frame("multi_margin_loss", input)
    if target.dim() > 1 or target.numel() != n:
        raise RuntimeError(f"multi_margin_loss: target tensor should be 1-D with size equal to the number of input "
                           f"samples (batch size). Expected target size [{n}], but got {list(target.shape)}. "
                           f"Input has shape {list(input.shape)}.")
    _long_target(target)
    if weight is not None and (weight.dim() > 1 or weight.numel() != c):
        raise RuntimeError(f"inconsistent weight size, expected {c} but got {list(weight.shape)}")
    x, t = input.reshape(n, c), target.reshape(n, 1)
    _assert_all((t < 0) | (t >= c), RuntimeError, "target out of range", "multi_margin_loss")
    safe = where(t < 0, 0, where(t >= c, 0, t))
    z = (margin - x.gather(1, safe) + x).clamp_min(0)
    h = z if p == 1 else z * z
    from .creation import arange
    others = (arange(c, device=x.device).reshape(1, c) != safe).to(x.dtype)
    h = h * others
    if weight is not None:
        h = h * weight.index_select(0, safe.reshape(-1)).reshape(n, 1)
    loss = h.sum(1) / c
    if reduction == "none":
        return loss if target.dim() > 0 else loss.reshape(())
    return _reduce(loss, reduction)


def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0, size_average=None,
                          reduce=None, reduction: str = "mean") -> Tensor:
    """``1 - cos(x1, x2)`` where ``target == 1``, ``max(0, cos(x1, x2) - margin)`` where ``target == -1``.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> a, b = torch.tensor([[1., 0.], [1., 0.]]), torch.tensor([[0., 1.], [1., 0.]])
        >>> F.cosine_embedding_loss(a, b, torch.tensor([1., -1.])).item()
        1.0
    """
    from .elementwise import where
    reduction = _reduction(reduction, size_average, reduce)
    td = target.dim()
    if td not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    want = 2 if td == 1 else 1
    if input1.dim() != want or input2.dim() != want:
        raise RuntimeError(f"{td}D target tensor expects {want}D input tensors, but found inputs with sizes "
                           f"{list(input1.shape)} and {list(input2.shape)}.")
    eps = 1e-12
    prod = (input1 * input2).sum(td)
    mag1 = (input1 * input1).sum(td) + eps
    mag2 = (input2 * input2).sum(td) + eps
    cos = prod / (mag1 * mag2).sqrt()
    loss = where(target == 1, 1 - cos, 0.0) + where(target == -1, (cos - margin).clamp_min(0), 0.0)
    return _reduce(loss, reduction)


def _triplet_dims(a: Tensor, p: Tensor, n: Tensor) -> None:
    if not (a.dim() == p.dim() == n.dim()):
        raise RuntimeError(f"The anchor, positive, and negative tensors are expected to have the same number of "
                           f"dimensions, but got: anchor {a.dim()}D, positive {p.dim()}D, and negative {n.dim()}D "
                           f"inputs")


def _triplet(anchor, positive, negative, distance, margin: float, swap: bool, reduction: str) -> Tensor:
    from .elementwise import minimum
    d_pos, d_neg = distance(anchor, positive), distance(anchor, negative)
    if swap:
        d_neg = minimum(d_neg, distance(positive, negative))
    return _reduce((margin + d_pos - d_neg).clamp_min(0), reduction)


def triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor, margin: float = 1.0, p: float = 2,
                        eps: float = 1e-6, swap: bool = False, size_average=None, reduce=None,
                        reduction: str = "mean") -> Tensor:
    """``max(0, d(a, p) - d(a, n) + margin)`` with ``d`` the pairwise ``p``-distance; ``swap`` uses the
    smaller of d(a, n) and d(p, n).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> a, p, n = torch.zeros(1, 2), torch.tensor([[3., 4.]]), torch.tensor([[6., 8.]])
        >>> round(F.triplet_margin_loss(a, p, n, margin=6.0).item(), 4)
        1.0
    """
    reduction = _reduction(reduction, size_average, reduce)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    _triplet_dims(anchor, positive, negative)
    return _triplet(anchor, positive, negative, lambda x, y: pairwise_distance(x, y, p, eps), margin, swap,
                    reduction)


def triplet_margin_with_distance_loss(anchor: Tensor, positive: Tensor, negative: Tensor, *,
                                      distance_function=None, margin: float = 1.0, swap: bool = False,
                                      reduction: str = "mean") -> Tensor:
    """``triplet_margin_loss`` with any ``distance_function(x, y)`` (default ``pairwise_distance``).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> a, p, n = torch.zeros(1, 2), torch.tensor([[1., 0.]]), torch.tensor([[0., 3.]])
        >>> dist = lambda x, y: (x - y).abs().sum(-1)
        >>> F.triplet_margin_with_distance_loss(a, p, n, distance_function=dist, margin=3.0).item()
        1.0
    """
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    _triplet_dims(anchor, positive, negative)
    return _triplet(anchor, positive, negative, distance_function or pairwise_distance, margin, swap, reduction)
