"""Losses of ``torch.nn.functional`` with PyTorch's formulas, reductions and checks: mse_loss,
l1_loss, smooth_l1_loss, huber_loss, cross_entropy, nll_loss, binary_cross_entropy,
binary_cross_entropy_with_logits, kl_div."""
from __future__ import annotations

import warnings

from .. import _dtype, autograd
from ..tensor import Tensor
from ._nn_ce import cross_entropy_fused, fused_ok
from ._registry import OpDef, register

__all__ = ["mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "cross_entropy", "nll_loss",
           "binary_cross_entropy", "binary_cross_entropy_with_logits", "kl_div"]

# Elementwise terms are a few ulps off PyTorch's; the reductions add float32 sums in another order
# (the golden comparison widens by PyTorch's own float32-vs-float64 deviation): 1e-5 relative.
for _n in ("mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss"):
    register(OpDef(_n, "nn", None, None, tol=(1e-5, 1e-6), doc="elementwise loss, then the reduction"))
# log_softmax (2e-6) and logs of probabilities, then a weighted mean: 1e-5 absolute for O(1) losses
for _n in ("cross_entropy", "nll_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits", "kl_div"):
    register(OpDef(_n, "nn", None, None, tol=(1e-5, 1e-5), doc="log-likelihood loss, then the reduction"))

_REDUCTIONS = ("none", "mean", "sum")
_NAMES = _dtype.SCALAR_NAMES  # PyTorch's ScalarType names (Float, Byte, ...)


def _legacy(size_average, reduce) -> str:
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    ret = "mean" if size_average and reduce else ("sum" if reduce else "none")
    warnings.warn(f"size_average and reduce args will be deprecated, please use reduction='{ret}' instead.",
                  stacklevel=3)
    return ret


def _reduction(reduction: str, size_average=None, reduce=None, allowed=_REDUCTIONS) -> str:
    if size_average is not None or reduce is not None:
        reduction = _legacy(size_average, reduce)
    if reduction not in allowed:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return reduction


def _reduce(loss: Tensor, reduction: str) -> Tensor:
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def _warn_size(input: Tensor, target: Tensor) -> None:
    if tuple(target.shape) != tuple(input.shape):
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input size ({input.shape}). "
                      "This will likely lead to incorrect results due to broadcasting. Please ensure they have the "
                      "same size.", stacklevel=3)


def _broadcast_tensors(a: tuple, b: tuple) -> tuple:
    """The broadcast shape of a and b, with torch.broadcast_tensors' error text."""
    n = max(len(a), len(b))
    a, b = (1,) * (n - len(a)) + a, (1,) * (n - len(b)) + b
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y and x != 1 and y != 1:
            raise RuntimeError(f"The size of tensor a ({x}) must match the size of tensor b ({y}) at non-singleton "
                               f"dimension {i}")
    return tuple(max(x, y) if min(x, y) != 0 else 0 for x, y in zip(a, b))


def _pointwise(name: str, fn, input: Tensor, target: Tensor, reduction: str, weight=None, weighted_mean=True):
    """The shared body of the elementwise losses (PyTorch's checks and its weighted reductions)."""
    from .elementwise import promote
    _warn_size(input, target)
    shape = _broadcast_tensors(tuple(input.shape), tuple(target.shape))
    dt = promote([input, target])
    if name != "l1_loss" and not dt.is_floating_point:  # l1 is composite in PyTorch: its mean() raises instead
        raise NotImplementedError(f"\"{name[:-5]}_cpu\" not implemented for '{_NAMES[dt.name]}'")
    x, t = input.expand(shape), target.expand(shape)
    if weight is None:
        reduction = _reduction(reduction)
        return _reduce(fn(x, t), reduction)
    if tuple(weight.shape) != tuple(input.shape):
        raise ValueError("Weights and input must have the same size.")
    loss = fn(x, t) * weight
    if reduction == "none":
        return loss
    if reduction == "sum":
        return loss.sum()
    if reduction == "mean":
        return loss.sum() / weight.sum() if weighted_mean else loss.mean()
    raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'.")


def mse_loss(input: Tensor, target: Tensor, size_average=None, reduce=None, reduction: str = "mean",
             weight: Tensor | None = None) -> Tensor:
    """Mean (or sum) of squared differences; with ``weight``, ``sum(w * d^2) / sum(w)``.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.mse_loss(torch.tensor([1., 2.]), torch.tensor([1., 4.])).item()
        2.0
    """
    if size_average is not None or reduce is not None:
        reduction = _legacy(size_average, reduce)
    return _pointwise("mse_loss", lambda x, t: (x - t).square(), input, target, reduction, weight)


def l1_loss(input: Tensor, target: Tensor, size_average=None, reduce=None, reduction: str = "mean",
            weight: Tensor | None = None) -> Tensor:
    """Mean (or sum) of absolute differences."""
    if size_average is not None or reduce is not None:
        reduction = _legacy(size_average, reduce)
    return _pointwise("l1_loss", lambda x, t: (x - t).abs(), input, target, reduction, weight)


def _smooth(d: Tensor, beta: float) -> Tensor:
    from .elementwise import where
    z = d.abs()
    return where(z < beta, 0.5 * d * d / beta, z - 0.5 * beta)


def smooth_l1_loss(input: Tensor, target: Tensor, size_average=None, reduce=None, reduction: str = "mean",
                   beta: float = 1.0) -> Tensor:
    """``0.5 d^2 / beta`` where ``|d| < beta``, else ``|d| - 0.5 beta`` (``beta = 0`` is the L1 loss)."""
    if size_average is not None or reduce is not None:
        reduction = _legacy(size_average, reduce)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    if beta == 0.0:
        return l1_loss(input, target, reduction=reduction)
    return _pointwise("smooth_l1_loss", lambda x, t: _smooth(x - t, beta), input, target, reduction)


def huber_loss(input: Tensor, target: Tensor, reduction: str = "mean", delta: float = 1.0,
               weight: Tensor | None = None) -> Tensor:
    """``0.5 d^2`` where ``|d| < delta``, else ``delta (|d| - 0.5 delta)``."""
    from .elementwise import where
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")

    def fn(x, t):
        d = x - t
        z = d.abs()
        return where(z < delta, 0.5 * d * d, delta * (z - 0.5 * delta))
    return _pointwise("huber_loss", fn, input, target, reduction, weight, weighted_mean=False)


# ---- negative log-likelihood -----------------------------------------------------------------------------
def _pick(x: Tensor, idx: Tensor, op: str) -> Tensor:
    """x[n, idx[n, 0, *], *] for x (N, C, *) and idx (N, 1, *): a gather whose bad indices raise
    PyTorch's ``IndexError: Target 5 is out of bounds.`` as from op (on WebGPU: device/gpu_errors.py)."""
    from .indexing import _take
    out = _take(x, 1, idx, idx._stride, tuple(idx.shape), IndexError, "Target {index} is out of bounds.", op=op)

    def back(g):
        from .creation import zeros
        return (zeros(tuple(x.shape), dtype=g.dtype, device=g.device).scatter(1, idx, g),)
    autograd.record("GatherBackward0", [x], [out], back)
    return out


def _check_nll(input: Tensor, target: Tensor, weight) -> None:
    if input.dim() < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {input.dim()})")
    if input.dim() == 1 and target.dim() == 1 and target.shape[0] != 1:
        raise ValueError(f"For 1D input, 1D target must have size 1, but got target size: {target.shape[0]}")
    if input.dim() != 1 and (target.dim() == 0 or input.shape[0] != target.shape[0]):
        raise ValueError(f"Expected input batch_size ({input.shape[0]}) to match target batch_size "
                         f"({target.shape[0] if target.dim() else 0}).")
    if input.dim() <= 2:
        if target.dim() > 1:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
        if input.dim() == 2 and target.dim() == 0:
            raise RuntimeError(f"size mismatch (got input: {list(input.shape)}, target: {list(target.shape)})")
    elif tuple(target.shape[1:]) != tuple(input.shape[2:]):
        want = [input.shape[0]] + list(input.shape[2:])
        raise RuntimeError(f"Expected target size {want}, got {list(target.shape)}")
    c = input.shape[-1] if input.dim() == 1 else input.shape[1]
    if weight is not None and (weight.dim() != 1 or weight.numel() != c):
        raise RuntimeError(f"weight tensor should be defined either for all {c} classes or no classes but got "
                           f"weight tensor of shape: {list(weight.shape)}")
    if target.dtype is not _dtype.int64:
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {_NAMES[target.dtype.name]}")


def _not_differentiable(fn: str, **named) -> None:
    for name, t in named.items():
        if t is not None and autograd.graph.needs_grad(t):
            raise RuntimeError(f"The function '{fn}' is not differentiable with respect to argument '{name}'. This "
                               "input cannot have requires_grad True.")


def _nll(input: Tensor, target: Tensor, weight, ignore_index: int, reduction: str, op: str = "nll_loss") -> Tensor:
    from .elementwise import where
    _not_differentiable("nll_loss_forward" if input.dim() <= 2 else "nll_loss2d_forward", weight=weight)
    x, t = input, target
    if input.dim() == 1:  # unbatched (C,) with a 0-d (or one-element) target
        x, t = input.unsqueeze(0), target.reshape(1)
    safe = where(t == ignore_index, 0, t)
    picked = _pick(x, safe.unsqueeze(1).contiguous(), op).squeeze(1)
    keep = (t != ignore_index).to(x.dtype)
    w = keep if weight is None else weight.index_select(0, safe.reshape(-1)).reshape(t.shape) * keep
    loss = -picked * w
    if reduction == "none":
        return loss.reshape(target.shape) if input.dim() == 1 else loss
    if reduction == "sum":
        return loss.sum()
    # the mean over the targets' weights; when every target is ignored it is 0/0 = NaN, with a zero
    # gradient (as PyTorch: a 1/0 factor would turn the zero weights' gradients into NaN)
    total = w.detach().sum()
    inv = where(total == 0, 0.0, 1.0 / total).to(loss.dtype)
    return loss.sum() * inv + where(total == 0, float("nan"), 0.0).to(loss.dtype)


def nll_loss(input: Tensor, target: Tensor, weight: Tensor | None = None, size_average=None, ignore_index: int = -100,
             reduce=None, reduction: str = "mean") -> Tensor:
    """Negative log-likelihood of class-index targets given log-probabilities ``input`` (N, C, *):
    ``-weight[t] * input[n, t]``; ``'mean'`` divides by the summed weights of the targets not ignored.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.nll_loss(torch.tensor([[-1., -2.], [-3., -4.]]), torch.tensor([1, 0])).item()
        2.5
    """
    reduction = _reduction(reduction, size_average, reduce)
    _check_nll(input, target, weight)
    return _nll(input, target, weight, ignore_index, reduction)


def cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None, size_average=None,
                  ignore_index: int = -100, reduce=None, reduction: str = "mean",
                  label_smoothing: float = 0.0) -> Tensor:
    """``nll_loss(log_softmax(input, 1), target)`` for class indices, or ``-sum(target * log_softmax)``
    for class probabilities (a float target of input's shape); ``label_smoothing`` mixes in the uniform
    distribution, with PyTorch's formulas for weights and ignored targets.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> round(F.cross_entropy(torch.zeros(2, 4), torch.tensor([0, 3])).item(), 4)
        1.3863
    """
    from .reduce import log_softmax
    reduction = _reduction(reduction, size_average, reduce)
    if input.dim() < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {input.dim()})")
    class_dim = 0 if input.dim() == 1 else 1
    c = input.shape[class_dim]
    if tuple(input.shape) == tuple(target.shape):
        if not target.dtype.is_floating_point:
            raise RuntimeError(f"Expected floating point type for target with class probabilities, got "
                               f"{_NAMES[target.dtype.name]}")
        if ignore_index >= 0:
            raise RuntimeError("ignore_index is not supported for floating point target")
        if not 0.0 <= label_smoothing <= 1.0:
            raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
        if weight is not None and (weight.dim() != 1 or weight.numel() != c):
            raise RuntimeError(f"weight tensor should be defined either for all {c} classes or no classes but got "
                               f"weight tensor of shape: {list(weight.shape)}")
        logp = log_softmax(input, class_dim)
        t = target * (1 - label_smoothing) + label_smoothing / c if label_smoothing > 0.0 else target
        prod = logp * t
        if weight is not None:
            prod = prod * weight.reshape((1,) * class_dim + (c,) + (1,) * (input.dim() - class_dim - 1))
        if reduction == "none":
            return -prod.sum(class_dim)
        if reduction == "sum":
            return -prod.sum()
        if input.numel() == 0:
            return -prod.sum() * float("nan")
        return -prod.sum() / (input.numel() // c)
    if label_smoothing > 0.0:
        if label_smoothing > 1.0:
            raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
        _check_nll(input, target, weight)
        logp = log_softmax(input, class_dim)
        nll = _nll(logp, target, weight, ignore_index, reduction, "cross_entropy")
        return (1 - label_smoothing) * nll + _smooth_term(logp, target, weight, ignore_index, reduction, class_dim) \
            * (label_smoothing / c)
    _check_nll(input, target, weight)
    if fused_ok(input, target, weight, label_smoothing):   # three kernels in all (ops/_nn_ce.py)
        return cross_entropy_fused(input, target, ignore_index, reduction)
    return _nll(log_softmax(input, class_dim), target, weight, ignore_index, reduction, "cross_entropy")


def _smooth_term(logp: Tensor, target: Tensor, weight, ignore_index: int, reduction: str, class_dim: int) -> Tensor:
    """The label-smoothing part of cross_entropy (PyTorch's cross_entropy_loss_label_smoothing)."""
    from .elementwise import where
    if weight is not None:
        shape = [1] * logp.dim()
        shape[class_dim] = weight.shape[0]
        smooth = -(logp * weight.reshape(shape)).sum(class_dim)
    else:
        smooth = -logp.sum(class_dim)
    ignored = target == ignore_index
    smooth = smooth.masked_fill(ignored, 0.0)
    if reduction == "none":
        return smooth
    if reduction == "sum":
        return smooth.sum()
    if weight is not None:
        safe = where(ignored, 0, target).reshape(-1)
        w = weight.index_select(0, safe) * (~ignored).reshape(-1).to(weight.dtype)
        return smooth.sum() / w.sum()
    return smooth.sum() / (~ignored).sum()


# ---- binary cross-entropy --------------------------------------------------------------------------------
def _assert_all(bad: Tensor, exc: type, msg: str, op: str) -> None:
    """Raise ``exc(msg)`` as from op if any element of the bool tensor ``bad`` is True: at once on the cpu
    device, as a kernel error on WebGPU (a 0/1 index into a one-element probe, checked by the take kernel)."""
    from .creation import zeros
    from .indexing import _take
    idx = bad.reshape(-1).to(_dtype.int32).contiguous()
    probe = zeros(1, dtype=_dtype.int32, device=bad.device)
    _take(probe, 0, idx, (1,), (idx.shape[0],), exc, msg, op=op)


def binary_cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None, size_average=None,
                         reduce=None, reduction: str = "mean") -> Tensor:
    """``-w (t log x + (1 - t) log(1 - x))`` for probabilities ``x``, each log clamped at -100 as PyTorch."""
    reduction = _reduction(reduction, size_average, reduce)
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"Using a target size ({target.shape}) that is different to the input size "
                         f"({input.shape}) is deprecated. Please ensure they have the same size.")
    _not_differentiable("binary_cross_entropy", weight=weight)
    if weight is not None:
        from .elementwise import broadcast_shapes
        weight = weight.expand(broadcast_shapes(tuple(target.shape), tuple(weight.shape)))
    if input.numel():
        _assert_all(~((input.detach() >= 0) & (input.detach() <= 1)), RuntimeError,
                    "all elements of input should be between 0 and 1", "binary_cross_entropy")
    with autograd.no_grad():
        x, t = input.detach(), target.detach()
        loss = (t - 1) * (-x).log1p().clamp(min=-100.0) - t * x.log().clamp(min=-100.0)
        if weight is not None:
            loss = loss * weight.detach()

    def back(g):  # PyTorch's formulas (not the clamped logs' derivatives)
        w = 1.0 if weight is None else weight
        gx = g * w * (input - target) / ((1 - input) * input).clamp(min=1e-12)
        gt = -g * w * (input / (1 - input)).log() if target.requires_grad else None
        return gx, gt
    autograd.record("BinaryCrossEntropyBackward0", [input, target], [loss], back, [input, target])
    return _reduce(loss, reduction)


def _log_sigmoid(x: Tensor) -> Tensor:
    from .unary import softplus
    return -softplus(-x)


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight: Tensor | None = None,
                                     size_average=None, reduce=None, reduction: str = "mean",
                                     pos_weight: Tensor | None = None) -> Tensor:
    """``(1 - t) x - (1 + (pos_weight - 1) t) log_sigmoid(x)``, times ``weight``: binary cross-entropy on
    logits, stable for any ``x``."""
    reduction = _reduction(reduction, size_average, reduce)
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"Target size ({target.shape}) must be the same as input size ({input.shape})")
    _not_differentiable("binary_cross_entropy_with_logits", weight=weight, pos_weight=pos_weight)
    if pos_weight is not None:
        log_weight = (pos_weight - 1) * target + 1
        loss = (1 - target) * input - log_weight * _log_sigmoid(input)
    else:
        loss = (1 - target) * input - _log_sigmoid(input)
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


# ---- KL divergence -------------------------------------------------------------------------------------------
def _xlogy(x: Tensor, y: Tensor) -> Tensor:
    """``x * log(y)``, 0 where x == 0 (NaN where y is NaN), with PyTorch's gradients."""
    from .elementwise import where
    with autograd.no_grad():
        xd, yd = x.detach(), y.detach()
        out = where((xd == 0) & ~yd.isnan(), 0.0, xd * yd.log())

    def back(g):
        return g * where(x != 0, y.log(), 0.0), g * x / y
    autograd.record("XlogyBackward0", [x, y], [out], back, [x, y])
    return out


def kl_div(input: Tensor, target: Tensor, size_average=None, reduce=None, reduction: str = "mean",
           log_target: bool = False) -> Tensor:
    """KL divergence with ``input`` as log-probabilities: ``target * (log(target) - input)`` (or, with
    ``log_target``, ``exp(target) * (target - input)``); ``'batchmean'`` divides the sum by the batch size."""
    if size_average is not None or reduce is not None:
        reduction = _legacy(size_average, reduce)
    else:
        if reduction == "mean":
            warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the support size."
                          "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                          "'mean' will be changed to behave the same as 'batchmean' in the next major release.",
                          stacklevel=2)
        if reduction not in _REDUCTIONS + ("batchmean",):
            raise ValueError(f"{reduction} is not a valid value for reduction")
    if log_target:
        loss = target.exp() * (target - input)
    else:
        loss = _xlogy(target, target) - target * input
    if reduction == "batchmean":
        out = loss.sum()
        return out / input.shape[0] if input.dim() != 0 else out
    return _reduce(loss, reduction)
