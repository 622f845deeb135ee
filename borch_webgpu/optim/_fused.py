"""When the built-in optimizers update a parameter with one fused kernel (device/gpu_optim.py)
instead of their tensor code: float32 parameters on ``webgpu`` whose gradient and state are
contiguous float32 on the same device, outside ``differentiable=True``. One dispatch per parameter
replaces three (SGD with momentum) to eight (Adam); the float32 operations are the same, in the
same order. Anything else takes the tensor code (the reference), unchanged."""
from __future__ import annotations

from ..tensor import Tensor

__all__ = ["eligible"]


def eligible(group: dict, p: Tensor, grad: Tensor, *state) -> bool:
    if p.device.type != "webgpu" or group.get("differentiable"):
        return False
    for t in (p, grad) + state:
        if t is None:
            continue
        if not isinstance(t, Tensor) or t.dtype.name != "float32" or t.device != p.device or not t.is_contiguous():
            return False
        if t.requires_grad and t is not p:
            return False
    return grad.shape == p.shape


def touched(*ts) -> None:
    """Bump the version counters of tensors a fused kernel wrote (as the in-place ops would)."""
    for t in ts:
        if t is not None:
            t._bump_version()
