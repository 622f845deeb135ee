"""``torch.optim.Adagrad``: per-element learning rates from the sum of squared gradients."""
from __future__ import annotations

from typing import Any

from ..ops.creation import full_like
from ..tensor import Tensor
from .adam import bump, new_step
from .optimizer import Optimizer, check_fused_foreach, hyper

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    r"""Adagrad (``torch.optim.Adagrad``).

    Per parameter, at step ``t``, with gradient ``g`` (negated when ``maximize``)::

        g = g + weight_decay * p                       (when weight_decay != 0)
        clr = lr / (1 + (t - 1) * lr_decay)
        s = s + g * g;   p = p - clr * g / (sqrt(s) + eps)

    The sums start at ``initial_accumulator_value`` and exist from construction on, as in PyTorch.

    Args:
        params: tensors or parameter-group dicts to optimize.
        lr (float): learning rate (default: 1e-2).
        lr_decay (float): learning-rate decay (default: 0).
        weight_decay (float): L2 penalty (default: 0).
        initial_accumulator_value (float): the sums' starting value (default: 0).
        eps (float): added to the denominator (default: 1e-10).
        foreach, maximize, differentiable, fused: as in PyTorch (``maximize`` flips the gradient).

    Example::

        >>> w = torch.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = torch.optim.Adagrad([w], lr=0.1)
        >>> (w * w).sum().backward(); opt.step()
        >>> w
        tensor([ 0.9000, -1.9000], requires_grad=True)
    """

    def __init__(self, params, lr: float | Tensor = 1e-2, lr_decay: float = 0, weight_decay: float = 0,
                 initial_accumulator_value: float = 0, eps: float = 1e-10, foreach: bool | None = None, *,
                 maximize: bool = False, differentiable: bool = False, fused: bool | None = None) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= lr_decay:
            raise ValueError(f"Invalid lr_decay value: {lr_decay}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= initial_accumulator_value:
            raise ValueError(f"Invalid initial_accumulator_value value: {initial_accumulator_value}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        defaults = {"lr": lr, "lr_decay": lr_decay, "eps": eps, "weight_decay": weight_decay,
                    "initial_accumulator_value": initial_accumulator_value, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable, "fused": fused}
        super().__init__(params, defaults)
        check_fused_foreach(fused, foreach, differentiable)
        for group in self.param_groups:
            for p in group["params"]:
                self.init_single(p, group, self.state[p])

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("foreach", None)
            group.setdefault("maximize", False)
            group.setdefault("differentiable", False)
            group.setdefault("fused", None)
        self._step_counts_as_tensors()

    def init_single(self, p: Tensor, group: dict[str, Any], state: dict[str, Any]) -> None:
        state["step"] = new_step()
        # PyTorch reads the optimizer's default here, not the group's
        state["sum"] = full_like(p, self.defaults["initial_accumulator_value"])

    def apply_single(self, p: Tensor, grad: Tensor, group: dict[str, Any], state: dict[str, Any]) -> None:
        step = bump(state["step"])
        if group["maximize"]:
            grad = -grad
        weight_decay = group["weight_decay"]
        if weight_decay != 0:
            grad = grad.add(p, alpha=weight_decay)
        clr = hyper(group, "lr") / (1 + (step - 1) * hyper(group, "lr_decay"))
        state_sum = state["sum"]
        state_sum.add_(grad * grad)
        std = state_sum.sqrt() + group["eps"]
        p.add_(grad * -clr / std)
