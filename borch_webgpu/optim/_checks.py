"""The argument checks and ``__setstate__`` defaults that several optimizers share, in PyTorch's
order and words (``Invalid learning rate: -0.1``)."""
from __future__ import annotations

from collections.abc import Callable

from ..device import capture
from ..tensor import Tensor

__all__ = ["check_lr", "check_adam_args", "group_defaults", "host_scalar"]


def check_lr(lr) -> None:
    if isinstance(lr, Tensor) and lr.numel() != 1:
        raise ValueError("Tensor lr must be 1-element")
    if not 0.0 <= lr:
        raise ValueError(f"Invalid learning rate: {lr}")


def check_adam_args(lr, betas, eps, weight_decay) -> None:
    """NAdam's, RAdam's and Adamax's checks: lr, eps, both betas, weight_decay."""
    check_lr(lr)
    if not 0.0 <= eps:
        raise ValueError(f"Invalid epsilon value: {eps}")
    if not 0.0 <= betas[0] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
    if not 0.0 <= betas[1] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
    if not 0.0 <= weight_decay:
        raise ValueError(f"Invalid weight_decay value: {weight_decay}")


def group_defaults(opt, **defaults) -> None:
    """What ``__setstate__`` fills in for groups saved by an older version; step counts saved as
    numbers become cpu tensors."""
    for group in opt.param_groups:
        for key, value in defaults.items():
            group.setdefault(key, value)
    opt._step_counts_as_tensors()


def host_scalar(t: Tensor, op: Callable[[Tensor, float], None], arg=None):
    """Apply ``op(t, arg)`` to a 0-d cpu state tensor (NAdam's ``mu_product``) and return its new
    value as a number. Inside a captured step the update is replayed before every replay, with
    ``arg`` recomputed when it is a :class:`~borch_webgpu.device.capture.Dyn`, and the value read
    again (as ``bump`` does for the step count)."""
    with capture.host_side():
        op(t, arg)
        now = t.item()
    if capture.active() is None:
        return now
    capture.on_replay(lambda: op(t, arg.fn() if isinstance(arg, capture.Dyn) else arg))
    return capture.Dyn(now, t.item)
