"""``torch.optim.AdamW``: Adam with decoupled weight decay (``p *= 1 - lr * weight_decay``)."""
from __future__ import annotations

from typing import Any

from ..tensor import Tensor
from .adam import Adam

__all__ = ["AdamW"]


class AdamW(Adam):
    r"""AdamW (``torch.optim.AdamW``): Adam whose weight decay shrinks the weights directly
    instead of entering the moment estimates. Same arguments as :class:`Adam`, except
    ``weight_decay`` defaults to 1e-2.

    Example::

        >>> w = torch.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = torch.optim.AdamW([w], lr=0.1, weight_decay=0.5)
        >>> (w * w).sum().backward(); opt.step()
        >>> w
        tensor([ 0.8500, -1.8000], requires_grad=True)
    """

    def __init__(self, params, lr: float | Tensor = 1e-3, betas=(0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 1e-2, amsgrad: bool = False, *, maximize: bool = False,
                 foreach: bool | None = None, capturable: bool = False, differentiable: bool = False,
                 fused: bool | None = None) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize,
                         capturable=capturable, differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        for group in self.param_groups:
            group["decoupled_weight_decay"] = True
