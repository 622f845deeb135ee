"""Cross-entropy of float32 (N, C) logits and class indices as fused kernels on ``webgpu``: one
dispatch forward (each row's loss and log-sum-exp and their total; two past a classifier's batch
size, device/gpu_loss.py) and one backward (the
softmax minus the one-hot target, scaled), instead of log_softmax + nll_loss's seventeen each way
(wgsl/loss.wgsl, device/gpu_loss.py). The case every classifier's training loop has: no class
weights, no label smoothing, any reduction and ignore_index; the rest (and the ``cpu`` device)
takes the composite of ops/_nn_loss.py. With ``create_graph=True`` the backward is written with
differentiable ops instead, so gradients of any order stay right.
"""
from __future__ import annotations

from .. import autograd
from ..tensor import Tensor
from ._registry import OpDef, register

__all__ = ["fused_ok", "cross_entropy_fused"]

for _name, _mode in (("_cross_entropy_rows", "rows"), ("_cross_entropy_total", "total"),
                     ("_cross_entropy_one", "one"), ("_cross_entropy_backward", "bwd")):
    register(OpDef(_name, "nn", ("loss.wgsl", _mode), None, tol=(1e-5, 1e-6), extra={"golden": "cross_entropy"}))

_TARGET = "Target {index} is out of bounds."   # PyTorch's IndexError (nll_loss's)


def fused_ok(x: Tensor, target: Tensor, weight, label_smoothing: float) -> bool:
    return (x._device.type == "webgpu" and x.dim() == 2 and target.dim() == 1 and weight is None
            and label_smoothing == 0.0 and x.dtype.name == "float32" and target.dtype.name == "int64"
            and target.device == x.device and x.shape[0] == target.shape[0] and x.numel() > 0)


def _composite_grad(x: Tensor, target: Tensor, g: Tensor, ignore_index: int, reduction: str) -> Tensor:
    """The same gradient with differentiable ops (create_graph=True)."""
    from .elementwise import where
    from .reduce import softmax
    from .nn_ops import one_hot
    keep = (target != ignore_index)
    safe = where(keep, target, 0)
    k = keep.to(x.dtype).unsqueeze(1)
    d = (softmax(x, 1) - one_hot(safe, x.shape[1]).to(x.dtype)) * k
    if reduction == "none":
        return d * g.unsqueeze(1)
    if reduction == "mean":
        total = k.detach().sum()
        g = where(total == 0, 0.0, g / total)
    return d * g


def cross_entropy_fused(x: Tensor, target: Tensor, ignore_index: int, reduction: str) -> Tensor:
    from ..device import gpu_loss
    xd, t = x.detach().contiguous(), target.contiguous()
    out, aux = gpu_loss.forward(xd, t, ignore_index, reduction, IndexError, _TARGET, "cross_entropy")
    N = x.shape[0]
    y = Tensor._make(out, (N,) if reduction == "none" else (), x.dtype, x.device)

    def back(g):
        if autograd.is_grad_enabled():
            return (_composite_grad(x, t, g, ignore_index, reduction),)
        gy = g.detach().contiguous()
        return (Tensor._make(gpu_loss.backward(xd, t, aux, gy, ignore_index, reduction), tuple(x.shape), x.dtype,
                             x.device),)
    autograd.record("NllLossBackward0", [x], [y], back, [x])
    return y
