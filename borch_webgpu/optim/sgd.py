"""``torch.optim.SGD``: stochastic gradient descent, with momentum, Nesterov and weight decay."""
from __future__ import annotations

from typing import Any

from ..tensor import Tensor
from . import _fused
from .optimizer import Optimizer, check_fused_foreach, hyper

__all__ = ["SGD"]


class SGD(Optimizer):
    r"""Stochastic gradient descent, optionally with momentum (``torch.optim.SGD``).

    Per parameter, with gradient ``g`` (negated when ``maximize``)::

        g = g + weight_decay * p                       (when weight_decay != 0)
        b = g  on the first step, else  momentum * b + (1 - dampening) * g
        g = g + momentum * b  (nesterov)  or  g = b    (when momentum != 0)
        p = p - lr * g

    Args:
        params: tensors or parameter-group dicts to optimize.
        lr (float): learning rate (default: 1e-3).
        momentum (float): momentum factor (default: 0).
        dampening (float): dampening for momentum (default: 0).
        weight_decay (float): L2 penalty (default: 0).
        nesterov (bool): Nesterov momentum (default: False).
        maximize (bool): maximize the objective instead of minimizing it (default: False).
        foreach, differentiable, fused: accepted for PyTorch compatibility; one implementation runs.

    Example::

        >>> w = torch.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)
        >>> for _ in range(2):
        ...     opt.zero_grad(); (w * w).sum().backward(); opt.step()
        >>> w
        tensor([ 0.4600, -0.9200], requires_grad=True)
    """

    def __init__(self, params, lr: float | Tensor = 1e-3, momentum: float = 0, dampening: float = 0,
                 weight_decay: float | Tensor = 0, nesterov: bool = False, *, maximize: bool = False,
                 foreach: bool | None = None, differentiable: bool = False, fused: bool | None = None) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {"lr": lr, "momentum": momentum, "dampening": dampening, "weight_decay": weight_decay,
                    "nesterov": nesterov, "maximize": maximize, "foreach": foreach,
                    "differentiable": differentiable, "fused": fused}
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)
        check_fused_foreach(fused, foreach, differentiable)

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("nesterov", False)
            group.setdefault("maximize", False)
            group.setdefault("foreach", None)
            group.setdefault("differentiable", False)
            group.setdefault("fused", False)

    def _step_group(self, group: dict[str, Any]) -> None:
        # the float32 WebGPU parameters in multi-tensor dispatches (optim/_fused.py), the rest one by one
        for p in _fused.sgd_multi_tensor(self, group):
            self._step_param(p, group)

    def apply_single(self, p: Tensor, grad: Tensor, group: dict[str, Any], state: dict[str, Any]) -> None:
        weight_decay, momentum = hyper(group, "weight_decay"), hyper(group, "momentum")
        if group["maximize"]:
            grad = -grad
        if weight_decay != 0:
            grad = grad.add(p, alpha=weight_decay)
        if momentum != 0:
            buf = state.get("momentum_buffer")
            if buf is None:
                buf = state["momentum_buffer"] = grad.detach().clone()
            else:
                buf.mul_(momentum).add_(grad, alpha=1 - group["dampening"])
            grad = grad.add(buf, alpha=momentum) if group["nesterov"] else buf
        p.add_(grad, alpha=-hyper(group, "lr"))
