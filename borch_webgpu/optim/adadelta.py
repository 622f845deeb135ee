"""``torch.optim.Adadelta``: steps scaled by running averages of squared gradients and updates."""
from __future__ import annotations

from typing import Any

from ..ops.creation import zeros_like
from ..tensor import Tensor
from ._checks import check_lr, group_defaults
from .adam import bump, new_step
from .optimizer import Optimizer, hyper

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    r"""Adadelta (``torch.optim.Adadelta``).

    Per parameter, with gradient ``g`` (negated when ``maximize``)::

        g = g + weight_decay * p                       (when weight_decay != 0)
        v = rho * v + (1 - rho) * g * g
        delta = sqrt(u + eps) / sqrt(v + eps) * g;   u = rho * u + (1 - rho) * delta * delta
        p = p - lr * delta

    Args:
        params: tensors or parameter-group dicts to optimize.
        lr (float): scales ``delta`` (default: 1.0).
        rho (float): running-average coefficient (default: 0.9).
        eps (float): added inside both square roots (default: 1e-6).
        weight_decay (float): L2 penalty (default: 0).
        foreach, capturable, maximize, differentiable: as in PyTorch (``maximize`` flips the gradient).

    Example::

        >>> w = torch.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = torch.optim.Adadelta([w])
        >>> (w * w).sum().backward(); opt.step()
        >>> w
        tensor([ 0.9968, -1.9968], requires_grad=True)
    """

    def __init__(self, params, lr: float | Tensor = 1.0, rho: float = 0.9, eps: float = 1e-6,
                 weight_decay: float = 0, foreach: bool | None = None, *, capturable: bool = False,
                 maximize: bool = False, differentiable: bool = False) -> None:
        check_lr(lr)
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {"lr": lr, "rho": rho, "eps": eps, "weight_decay": weight_decay, "maximize": maximize,
                    "capturable": capturable, "foreach": foreach, "differentiable": differentiable}
        super().__init__(params, defaults)

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        group_defaults(self, foreach=None, maximize=False, differentiable=False, capturable=False)

    def init_single(self, p: Tensor, group: dict[str, Any], state: dict[str, Any]) -> None:
        state["step"] = new_step()
        state["square_avg"] = zeros_like(p)
        state["acc_delta"] = zeros_like(p)

    def apply_single(self, p: Tensor, grad: Tensor, group: dict[str, Any], state: dict[str, Any]) -> None:
        rho, eps, weight_decay = hyper(group, "rho"), hyper(group, "eps"), hyper(group, "weight_decay")
        bump(state["step"])
        if group["maximize"]:
            grad = -grad
        if weight_decay != 0:
            grad = grad.add(p, alpha=weight_decay)
        square_avg, acc_delta = state["square_avg"], state["acc_delta"]
        square_avg.mul_(rho).add_(grad * (1 - rho) * grad)
        std = square_avg.add(eps).sqrt_()
        delta = acc_delta.add(eps).sqrt_()
        delta.div_(std).mul_(grad)
        acc_delta.mul_(rho).add_(delta * (1 - rho) * delta)
        p.add_(delta, alpha=-hyper(group, "lr"))
