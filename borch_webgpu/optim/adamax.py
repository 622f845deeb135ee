"""``torch.optim.Adamax``: Adam with the infinity norm in place of the second moment."""
from __future__ import annotations

from typing import Any

from ..ops.creation import zeros_like
from ..ops.elementwise import maximum
from ..tensor import Tensor
from ._checks import check_adam_args, group_defaults
from .adam import bump, new_step
from .optimizer import Optimizer, hyper

__all__ = ["Adamax"]


class Adamax(Optimizer):
    r"""Adamax (``torch.optim.Adamax``).

    Per parameter, at step ``t``, with gradient ``g`` (negated when ``maximize``)::

        g = g + weight_decay * p                       (when weight_decay != 0)
        m = lerp(m, g, 1 - beta1);   u = max(beta2 * u, |g| + eps)
        p = p - lr / (1 - beta1**t) * m / u

    Args:
        params: tensors or parameter-group dicts to optimize.
        lr (float): learning rate (default: 2e-3).
        betas (tuple[float, float]): running-average coefficients (default: (0.9, 0.999)).
        eps (float): added to ``|g|`` (default: 1e-8).
        weight_decay (float): L2 penalty (default: 0).
        foreach, maximize, differentiable, capturable: as in PyTorch (``maximize`` flips the gradient).

    Example::

        >>> w = torch.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = torch.optim.Adamax([w], lr=0.1)
        >>> (w * w).sum().backward(); opt.step()
        >>> w
        tensor([ 0.9000, -1.9000], requires_grad=True)
    """

    def __init__(self, params, lr: float | Tensor = 2e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0, foreach: bool | None = None, *, maximize: bool = False,
                 differentiable: bool = False, capturable: bool = False) -> None:
        check_adam_args(lr, betas, eps, weight_decay)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable, "capturable": capturable}
        super().__init__(params, defaults)

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        group_defaults(self, foreach=None, maximize=False, differentiable=False, capturable=False)

    def init_single(self, p: Tensor, group: dict[str, Any], state: dict[str, Any]) -> None:
        state["step"] = new_step()
        state["exp_avg"] = zeros_like(p)
        state["exp_inf"] = zeros_like(p)

    def apply_single(self, p: Tensor, grad: Tensor, group: dict[str, Any], state: dict[str, Any]) -> None:
        lr, weight_decay, eps = hyper(group, "lr"), hyper(group, "weight_decay"), hyper(group, "eps")
        beta1, beta2 = hyper(group, "betas", 0), hyper(group, "betas", 1)
        if group["maximize"]:
            grad = -grad
        step = bump(state["step"])
        if weight_decay != 0:
            grad = grad.add(p, alpha=weight_decay)
        exp_avg, exp_inf = state["exp_avg"], state["exp_inf"]
        exp_avg.lerp_(grad, 1 - beta1)
        maximum(exp_inf.mul_(beta2), grad.abs().add_(eps), out=exp_inf)
        clr = lr / (1 - beta1 ** step)
        p.add_(exp_avg * -clr / exp_inf)
