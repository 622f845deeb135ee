"""``torch.optim.Rprop``: resilient backpropagation, steps that follow the gradient's sign."""
from __future__ import annotations

from typing import Any

from ..ops.creation import full_like, zeros_like
from ..tensor import Tensor
from ._checks import check_lr, group_defaults
from .adam import bump, new_step
from .optimizer import Optimizer, value

__all__ = ["Rprop"]


class Rprop(Optimizer):
    r"""Rprop (``torch.optim.Rprop``).

    Per element, with gradient ``g`` (negated when ``maximize``) and the previous one ``g'``::

        s = s * etaplus  where g * g' > 0;   s * etaminus  where g * g' < 0   (clamped to step_sizes)
        g = 0  where g * g' < 0
        p = p - sign(g) * s;   g' = g

    Each element's step size ``s`` starts at ``lr``.

    Args:
        params: tensors or parameter-group dicts to optimize.
        lr (float): the initial step size (default: 1e-2).
        etas (tuple[float, float]): ``(etaminus, etaplus)``, the factors that shrink and grow a step
            (default: (0.5, 1.2)).
        step_sizes (tuple[float, float]): the smallest and largest step size (default: (1e-6, 50)).
        capturable, foreach, maximize, differentiable: as in PyTorch (``maximize`` flips the gradient).

    Example::

        >>> w = torch.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = torch.optim.Rprop([w], lr=0.1)
        >>> (w * w).sum().backward(); opt.step()
        >>> w
        tensor([ 0.9000, -1.9000], requires_grad=True)
    """

    def __init__(self, params, lr: float | Tensor = 1e-2, etas: tuple[float, float] = (0.5, 1.2),
                 step_sizes: tuple[float, float] = (1e-6, 50), *, capturable: bool = False,
                 foreach: bool | None = None, maximize: bool = False, differentiable: bool = False) -> None:
        check_lr(lr)
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = {"lr": lr, "etas": etas, "step_sizes": step_sizes, "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable, "capturable": capturable}
        super().__init__(params, defaults)

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        group_defaults(self, foreach=None, maximize=False, differentiable=False, capturable=False)

    def init_single(self, p: Tensor, group: dict[str, Any], state: dict[str, Any]) -> None:
        state["step"] = new_step()
        state["prev"] = zeros_like(p)
        state["step_size"] = full_like(p, float(value(group["lr"])))

    def apply_single(self, p: Tensor, grad: Tensor, group: dict[str, Any], state: dict[str, Any]) -> None:
        etaminus, etaplus = group["etas"]
        step_size_min, step_size_max = group["step_sizes"]
        if group["maximize"]:
            grad = -grad
        prev, step_size = state["prev"], state["step_size"]
        bump(state["step"])
        sign = grad.mul(prev).sign()
        sign[sign.gt(0)] = etaplus
        sign[sign.lt(0)] = etaminus
        sign[sign.eq(0)] = 1
        step_size.mul_(sign).clamp_(step_size_min, step_size_max)
        grad = grad.clone()
        grad[sign.eq(etaminus)] = 0
        p.add_(grad.sign() * -1 * step_size)
        prev.copy_(grad)
