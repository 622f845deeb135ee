"""``torch.optim.ASGD``: averaged stochastic gradient descent."""
from __future__ import annotations

from typing import Any

from ..ops.creation import ones, tensor, zeros, zeros_like
from ..tensor import Tensor
from ._checks import check_lr
from .optimizer import Optimizer, hyper, value

__all__ = ["ASGD"]


class ASGD(Optimizer):
    r"""Averaged SGD (``torch.optim.ASGD``).

    Per parameter, at step ``t``, with gradient ``g`` (negated when ``maximize``)::

        g = g + weight_decay * p                       (when weight_decay != 0)
        p = p * (1 - lambd * eta) - eta * g
        ax = ax + mu * (p - ax)        (ax = p while mu == 1)
        eta = lr / (1 + lambd * lr * t) ** alpha;   mu = 1 / max(1, t - t0)

    ``step``, ``eta`` and ``mu`` are float32 0-d tensors on the parameter's device, as in PyTorch;
    ``ax`` holds the average.

    Args:
        params: tensors or parameter-group dicts to optimize.
        lr (float): learning rate (default: 1e-2).
        lambd (float): decay term (default: 1e-4).
        alpha (float): power for the eta update (default: 0.75).
        t0 (float): the step at which averaging starts (default: 1e6).
        weight_decay (float): L2 penalty (default: 0).
        foreach, maximize, differentiable, capturable: as in PyTorch (``maximize`` flips the gradient).

    Example::

        >>> w = torch.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = torch.optim.ASGD([w], lr=0.1)
        >>> (w * w).sum().backward(); opt.step()
        >>> w
        tensor([ 0.8000, -1.6000], requires_grad=True)
    """

    def __init__(self, params, lr: float | Tensor = 1e-2, lambd: float = 1e-4, alpha: float = 0.75,
                 t0: float = 1e6, weight_decay: float = 0, foreach: bool | None = None, maximize: bool = False,
                 differentiable: bool = False, capturable: bool = False) -> None:
        check_lr(lr)
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {"lr": lr, "lambd": lambd, "alpha": alpha, "t0": t0, "weight_decay": weight_decay,
                    "foreach": foreach, "maximize": maximize, "differentiable": differentiable,
                    "capturable": capturable}
        super().__init__(params, defaults)

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        for group in self.param_groups:
            for key, default in (("foreach", None), ("maximize", False), ("differentiable", False),
                                 ("capturable", False)):
                group.setdefault(key, default)
            for p in group["params"]:
                s = self.state.get(p, {})
                for key in ("step", "eta", "mu"):
                    if s and not isinstance(s[key], Tensor):
                        s[key] = tensor(float(s[key]), device=p.device)

    def init_single(self, p: Tensor, group: dict[str, Any], state: dict[str, Any]) -> None:
        state["step"] = zeros((), device=p.device)
        state["eta"] = tensor(float(value(group["lr"])), device=p.device)
        state["mu"] = ones((), device=p.device)
        state["ax"] = zeros_like(p)

    def apply_single(self, p: Tensor, grad: Tensor, group: dict[str, Any], state: dict[str, Any]) -> None:
        # eta and mu are read back each step (PyTorch's capturable=False path does the same)
        lambd, alpha, t0 = group["lambd"], group["alpha"], group["t0"]
        weight_decay, lr = hyper(group, "weight_decay"), value(group["lr"])
        if group["maximize"]:
            grad = -grad
        step_t, eta, mu, ax = state["step"], state["eta"], state["mu"], state["ax"]
        step_t.add_(1)
        if weight_decay != 0:
            grad = grad.add(p, alpha=weight_decay)
        eta_value = eta.item()
        p.mul_(1 - lambd * eta_value)
        p.add_(grad, alpha=-eta_value)
        if mu.item() != 1:
            ax.add_(p.sub(ax).mul_(mu))
        else:
            ax.copy_(p)
        step = step_t.item()
        eta.fill_(lr / ((1 + lambd * lr * step) ** alpha))
        mu.fill_(1 / max(1, step - t0))
