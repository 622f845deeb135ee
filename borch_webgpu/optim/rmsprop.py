"""``torch.optim.RMSprop``: divide by a running root-mean-square of the gradient."""
from __future__ import annotations

from typing import Any

from ..ops.creation import zeros_like
from ..tensor import Tensor
from .adam import bump, new_step
from .optimizer import Optimizer, hyper

__all__ = ["RMSprop"]


class RMSprop(Optimizer):
    r"""RMSprop (``torch.optim.RMSprop``).

    Per parameter, with gradient ``g`` (negated when ``maximize``)::

        g = g + weight_decay * p                       (when weight_decay != 0)
        v = alpha * v + (1 - alpha) * g * g
        avg = sqrt(v - ga * ga) + eps, ga = lerp(ga, g, 1 - alpha)   (centered)
        avg = sqrt(v) + eps                                          (otherwise)
        b = momentum * b + g / avg;  p = p - lr * b    (momentum > 0)
        p = p - lr * g / avg                           (otherwise)

    Args:
        params: tensors or parameter-group dicts to optimize.
        lr (float): learning rate (default: 1e-2).
        alpha (float): smoothing constant (default: 0.99).
        eps (float): added to the denominator (default: 1e-8).
        weight_decay (float): L2 penalty (default: 0).
        momentum (float): momentum factor (default: 0).
        centered (bool): normalize by an estimate of the gradient's variance (default: False).
        capturable, foreach, maximize, differentiable: as in PyTorch (``maximize`` flips the gradient).

    Example::

        >>> w = torch.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = torch.optim.RMSprop([w], lr=0.01)
        >>> (w * w).sum().backward(); opt.step()
        >>> w
        tensor([ 0.9000, -1.9000], requires_grad=True)
    """

    def __init__(self, params, lr: float | Tensor = 1e-2, alpha: float = 0.99, eps: float = 1e-8,
                 weight_decay: float = 0, momentum: float = 0, centered: bool = False, capturable: bool = False,
                 foreach: bool | None = None, maximize: bool = False, differentiable: bool = False) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= momentum:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= alpha:
            raise ValueError(f"Invalid alpha value: {alpha}")
        defaults = {"lr": lr, "momentum": momentum, "alpha": alpha, "eps": eps, "centered": centered,
                    "weight_decay": weight_decay, "capturable": capturable, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable}
        super().__init__(params, defaults)

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("momentum", 0)
            group.setdefault("centered", False)
            group.setdefault("foreach", None)
            group.setdefault("maximize", False)
            group.setdefault("differentiable", False)
            group.setdefault("capturable", False)
        self._step_counts_as_tensors()

    def init_single(self, p: Tensor, group: dict[str, Any], state: dict[str, Any]) -> None:
        state["step"] = new_step()
        state["square_avg"] = zeros_like(p)
        if group["momentum"] > 0:
            state["momentum_buffer"] = zeros_like(p)
        if group["centered"]:
            state["grad_avg"] = zeros_like(p)

    def apply_single(self, p: Tensor, grad: Tensor, group: dict[str, Any], state: dict[str, Any]) -> None:
        alpha, eps = hyper(group, "alpha"), hyper(group, "eps")
        weight_decay, momentum = hyper(group, "weight_decay"), hyper(group, "momentum")
        if group["maximize"]:
            grad = -grad
        bump(state["step"])
        if weight_decay != 0:
            grad = grad.add(p, alpha=weight_decay)
        square_avg = state["square_avg"]
        square_avg.mul_(alpha).add_(grad * (1 - alpha) * grad)
        if group["centered"]:
            grad_avg = state["grad_avg"]
            grad_avg.lerp_(grad, 1 - alpha)
            avg = (square_avg - grad_avg * grad_avg).sqrt()
        else:
            avg = square_avg.sqrt()
        avg = avg + eps
        if momentum > 0:
            buf = state["momentum_buffer"]
            buf.mul_(momentum).add_(grad / avg)
            p.add_(buf, alpha=-hyper(group, "lr"))
        else:
            p.add_(grad * -hyper(group, "lr") / avg)
