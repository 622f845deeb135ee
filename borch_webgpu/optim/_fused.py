"""When the built-in optimizers update parameters with fused kernels (device/gpu_optim.py) instead of
their tensor code: float32 parameters on ``webgpu`` whose gradient and state are contiguous float32
on the same device, outside ``differentiable=True``. SGD and Adam/AdamW update several parameters
per dispatch (multi-tensor, as many as the device's storage buffer limit allows: instead of three
dispatches per parameter for SGD with momentum and eight for Adam). The float32 operations are the
tensor code's, in the same order. Anything else takes the tensor code (the reference), unchanged."""
from __future__ import annotations

from ..device import gpu_optim
from ..ops.creation import empty_like
from ..tensor import Tensor
from .optimizer import hyper

__all__ = ["eligible", "touched", "sgd_multi_tensor", "adam_multi_tensor"]


def eligible(group: dict, p: Tensor, grad: Tensor, *state) -> bool:
    if p._device.type != "webgpu" or group.get("differentiable"):
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


def sgd_multi_tensor(opt, group: dict) -> list[Tensor]:
    """Update the group's eligible parameters with sgd_multi dispatches; returns the ones left (no
    gradient excluded) for the one-by-one path. Parameters on their first step with momentum (their
    buffer starts as the gradient) go in dispatches of their own."""
    if group.get("differentiable"):
        return [p for p in group["params"] if p.grad is not None]
    wd, mom = hyper(group, "weight_decay"), hyper(group, "momentum")
    batches: dict[bool, list] = {True: [], False: []}
    rest = []
    for p in group["params"]:
        if p.grad is None:
            continue
        state = opt.state[p] if p in opt.state else {}
        buf = state.get("momentum_buffer")
        if not eligible(group, p, p.grad, buf):
            rest.append(p)
            continue
        first = mom != 0 and buf is None
        if first:
            buf = state["momentum_buffer"] = empty_like(p)   # the kernel writes the gradient into it
            opt.state[p] = state
        batches[first].append((p, p.grad, buf if mom != 0 else None))
    if batches[True] or batches[False]:
        k = gpu_optim.per_dispatch("sgd_multi", gpu_optim.sgd_flags(wd, mom, group["nesterov"], group["maximize"]))
        lr = hyper(group, "lr")
        for first, items in batches.items():
            for i in range(0, len(items), k):
                gpu_optim.sgd_multi(items[i:i + k], first, lr, wd, mom, group["dampening"], group["nesterov"],
                                    group["maximize"])
                for p, _, b in items[i:i + k]:
                    touched(p, b)
    return rest


def adam_multi_tensor(opt, group: dict, bump) -> list[Tensor]:
    """Update the group's eligible parameters (their state made first if they have none) with adam_multi
    dispatches, each with its own step count (``bump`` advances it); returns the ones left for the
    one-by-one path, their step not yet advanced."""
    if group.get("differentiable"):
        return [p for p in group["params"] if p.grad is not None]
    amsgrad = bool(group["amsgrad"])
    items, rest = [], []
    beta1, beta2 = hyper(group, "betas", 0), hyper(group, "betas", 1)
    lr = hyper(group, "lr")
    for p in group["params"]:
        if p.grad is None:
            continue
        state = opt.state[p] if p in opt.state else {}
        if not state:
            opt.init_single(p, group, state)
            opt.state[p] = state
        m, v, x = state["exp_avg"], state["exp_avg_sq"], state.get("max_exp_avg_sq") if amsgrad else None
        if not eligible(group, p, p.grad, m, v, x):
            rest.append(p)
            continue
        step = bump(state["step"])
        items.append((p, p.grad, m, v, x, lr / (1 - beta1 ** step), (1 - beta2 ** step) ** 0.5))
    if items:
        wd = hyper(group, "weight_decay")
        flags = gpu_optim.adam_flags(wd, amsgrad, group["decoupled_weight_decay"], group["maximize"])
        k = gpu_optim.per_dispatch("adam_multi", flags)
        for i in range(0, len(items), k):
            gpu_optim.adam_multi(items[i:i + k], lr=lr, beta1=beta1, beta2=beta2, eps=hyper(group, "eps"),
                                 weight_decay=wd, amsgrad=amsgrad, decoupled=group["decoupled_weight_decay"],
                                 maximize=group["maximize"])
            for p, _, m, v, x, _, _ in items[i:i + k]:
                touched(p, m, v, x)
    return rest
