"""``torch.optim.Adam`` (and the update AdamW shares): moment estimates with bias correction."""
from __future__ import annotations

from typing import Any

from ..ops.creation import tensor, zeros_like
from ..ops.elementwise import maximum
from ..tensor import Tensor
from ..device import capture
from . import _fused
from ._checks import check_adam_args
from .optimizer import Optimizer, check_fused_foreach, hyper

__all__ = ["Adam"]


def new_step() -> Tensor:
    """The step counter: a float32 0-d tensor on the CPU, as PyTorch keeps it (unless fused or
    capturable), so reading it for the bias correction never waits for the GPU."""
    return tensor(0.0, device="cpu")


def bump(step_t: Tensor) -> float:
    """Add one to the step counter and return it. Inside a captured step the counter is advanced by a
    replay hook and the value read again before every replay (bias corrections follow it)."""
    with capture.host_side():
        step_t.add_(1)
        step = step_t.item()
    if capture.active() is None:
        return step

    def advance():
        step_t.add_(1)
    capture.on_replay(advance)
    return capture.Dyn(step, step_t.item)


class Adam(Optimizer):
    r"""Adam (``torch.optim.Adam``); with ``decoupled_weight_decay=True`` it is AdamW.

    Per parameter, at step ``t``, with gradient ``g`` (negated when ``maximize``)::

        p = p * (1 - lr * weight_decay)   (decoupled)   or   g = g + weight_decay * p
        m = lerp(m, g, 1 - beta1);   v = beta2 * v + (1 - beta2) * g * g
        v_max = max(v_max, v)   (amsgrad: v_max replaces v below)
        p = p - lr / (1 - beta1**t) * m / (sqrt(v) / sqrt(1 - beta2**t) + eps)

    Args:
        params: tensors or parameter-group dicts to optimize.
        lr (float): learning rate (default: 1e-3).
        betas (tuple[float, float]): running-average coefficients (default: (0.9, 0.999)).
        eps (float): added to the denominator (default: 1e-8).
        weight_decay (float): L2 penalty, or decoupled decay for AdamW (default: 0).
        amsgrad (bool): use the AMSGrad variant (default: False).
        maximize (bool): maximize the objective (default: False).
        decoupled_weight_decay (bool): decay the weights directly, as AdamW (default: False).
        foreach, capturable, differentiable, fused: accepted for PyTorch compatibility.

    Example::

        >>> w = torch.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = torch.optim.Adam([w], lr=0.1)
        >>> (w * w).sum().backward(); opt.step()
        >>> w
        tensor([ 0.9000, -1.9000], requires_grad=True)
    """

    def __init__(self, params, lr: float | Tensor = 1e-3, betas=(0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, amsgrad: bool = False, *, foreach: bool | None = None,
                 maximize: bool = False, capturable: bool = False, differentiable: bool = False,
                 fused: bool | None = None, decoupled_weight_decay: bool = False) -> None:
        if isinstance(lr, Tensor):
            if foreach and not capturable:
                raise ValueError("lr as a Tensor is not supported for capturable=False and foreach=True")
            if lr.numel() != 1:
                raise ValueError("Tensor lr must be 1-element")
        check_adam_args(lr, betas, eps, weight_decay)
        if not ((isinstance(betas[0], float) and isinstance(betas[1], float))
                or (isinstance(betas[0], Tensor) and isinstance(betas[1], Tensor))):
            raise ValueError("betas must be either both floats or both Tensors")
        for i in (0, 1):
            if isinstance(betas[i], Tensor):
                if not capturable and foreach:
                    raise ValueError(f"betas[{i}] as a Tensor is not supported for capturable=False and "
                                     "foreach=True")
                if betas[i].numel() != 1:
                    raise ValueError(f"Tensor betas[{i}] must be 1-element")
        betas = tuple(b.reshape(()) if isinstance(b, Tensor) and b.dim() != 0 else b for b in betas)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay, "amsgrad": amsgrad,
                    "maximize": maximize, "foreach": foreach, "capturable": capturable,
                    "differentiable": differentiable, "fused": fused, "decoupled_weight_decay": decoupled_weight_decay}
        super().__init__(params, defaults)
        check_fused_foreach(fused, foreach, differentiable)

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("amsgrad", False)
            group.setdefault("maximize", False)
            group.setdefault("foreach", None)
            group.setdefault("capturable", False)
            group.setdefault("differentiable", False)
            group.setdefault("decoupled_weight_decay", False)
            group.setdefault("fused", None)
        self._step_counts_as_tensors()

    def init_single(self, p: Tensor, group: dict[str, Any], state: dict[str, Any]) -> None:
        state["step"] = new_step()
        state["exp_avg"] = zeros_like(p)
        state["exp_avg_sq"] = zeros_like(p)
        if group["amsgrad"]:
            state["max_exp_avg_sq"] = zeros_like(p)

    def _step_group(self, group: dict[str, Any]) -> None:
        # the float32 WebGPU parameters in multi-tensor dispatches (optim/_fused.py), the rest one by one
        for p in _fused.adam_multi_tensor(self, group, bump):
            self._step_param(p, group)

    def apply_single(self, p: Tensor, grad: Tensor, group: dict[str, Any], state: dict[str, Any]) -> None:
        lr, weight_decay, eps = hyper(group, "lr"), hyper(group, "weight_decay"), hyper(group, "eps")
        beta1, beta2 = hyper(group, "betas", 0), hyper(group, "betas", 1)
        step = bump(state["step"])
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        if group["maximize"]:
            grad = -grad
        if weight_decay != 0:
            if group["decoupled_weight_decay"]:
                p.mul_(1 - lr * weight_decay)
            else:
                grad = grad.add(p, alpha=weight_decay)
        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).add_(grad * (1 - beta2) * grad)
        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        step_size = lr / bias_correction1
        bias_correction2_sqrt = bias_correction2 ** 0.5
        if group["amsgrad"]:
            maximum(state["max_exp_avg_sq"], exp_avg_sq, out=state["max_exp_avg_sq"])
            denom = state["max_exp_avg_sq"].sqrt() / bias_correction2_sqrt + eps
        else:
            denom = exp_avg_sq.sqrt() / bias_correction2_sqrt + eps
        p.add_(exp_avg * -step_size / denom)
