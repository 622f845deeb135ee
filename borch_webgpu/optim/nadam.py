"""``torch.optim.NAdam``: Adam with Nesterov momentum and a momentum schedule."""
from __future__ import annotations

from typing import Any

from ..ops.creation import tensor, zeros_like
from ..tensor import Tensor
from ._checks import check_adam_args, group_defaults, host_scalar
from .adam import bump, new_step
from .optimizer import Optimizer, hyper

__all__ = ["NAdam"]


def _mul(t: Tensor, mu: float) -> None:
    t.mul_(mu)


class NAdam(Optimizer):
    r"""NAdam (``torch.optim.NAdam``).

    Per parameter, at step ``t``, with gradient ``g`` (negated when ``maximize``)::

        p = p * (1 - lr * weight_decay)   (decoupled)   or   g = g + weight_decay * p
        mu_t = beta1 * (1 - 0.5 * 0.96 ** (t * momentum_decay));   prod = prod * mu_t
        m = lerp(m, g, 1 - beta1);   v = beta2 * v + (1 - beta2) * g * g
        denom = sqrt(v / (1 - beta2**t)) + eps
        p = p - lr * (1 - mu_t) / (1 - prod) * g / denom - lr * mu_{t+1} / (1 - prod * mu_{t+1}) * m / denom

    ``step`` and ``mu_product`` are float32 0-d tensors on the CPU, as PyTorch keeps them.

    Args:
        params: tensors or parameter-group dicts to optimize.
        lr (float): learning rate (default: 2e-3).
        betas (tuple[float, float]): running-average coefficients (default: (0.9, 0.999)).
        eps (float): added to the denominator (default: 1e-8).
        weight_decay (float): L2 penalty (default: 0).
        momentum_decay (float): the momentum schedule's decay (default: 4e-3).
        decoupled_weight_decay (bool): decay the weights directly, as NAdamW (default: False).
        foreach, maximize, capturable, differentiable: as in PyTorch (``maximize`` flips the gradient).

    Example::

        >>> w = torch.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = torch.optim.NAdam([w], lr=0.1)
        >>> (w * w).sum().backward(); opt.step()
        >>> w
        tensor([ 0.8944, -1.8944], requires_grad=True)
    """

    def __init__(self, params, lr: float | Tensor = 2e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0, momentum_decay: float = 4e-3,
                 decoupled_weight_decay: bool = False, *, foreach: bool | None = None, maximize: bool = False,
                 capturable: bool = False, differentiable: bool = False) -> None:
        check_adam_args(lr, betas, eps, weight_decay)
        if not 0.0 <= momentum_decay:
            raise ValueError(f"Invalid momentum_decay value: {momentum_decay}")
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "momentum_decay": momentum_decay, "decoupled_weight_decay": decoupled_weight_decay,
                    "maximize": maximize, "foreach": foreach, "capturable": capturable,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        group_defaults(self, maximize=False, foreach=None, capturable=False, differentiable=False,
                       decoupled_weight_decay=False)
        for s in self.state.values():
            if s and not isinstance(s.get("mu_product"), Tensor):
                s["mu_product"] = tensor(float(s["mu_product"]), device="cpu")

    def init_single(self, p: Tensor, group: dict[str, Any], state: dict[str, Any]) -> None:
        state["step"] = new_step()
        state["mu_product"] = tensor(1.0, device="cpu")
        state["exp_avg"] = zeros_like(p)
        state["exp_avg_sq"] = zeros_like(p)

    def apply_single(self, p: Tensor, grad: Tensor, group: dict[str, Any], state: dict[str, Any]) -> None:
        lr, weight_decay, eps = hyper(group, "lr"), hyper(group, "weight_decay"), hyper(group, "eps")
        beta1, beta2 = hyper(group, "betas", 0), hyper(group, "betas", 1)
        momentum_decay = hyper(group, "momentum_decay")
        if group["maximize"]:
            grad = -grad
        step = bump(state["step"])
        bias_correction2 = 1 - beta2 ** step
        if weight_decay != 0:
            if group["decoupled_weight_decay"]:
                p.mul_(1 - lr * weight_decay)
            else:
                grad = grad.add(p, alpha=weight_decay)
        mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * momentum_decay)))
        mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * momentum_decay)))
        mu_product = host_scalar(state["mu_product"], _mul, mu)
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).add_(grad * (1 - beta2) * grad)
        denom = exp_avg_sq.div(bias_correction2).sqrt().add_(eps)
        p.add_(grad * (-lr * (1.0 - mu) / (1.0 - mu_product)) / denom)
        mu_product_next = mu_product * mu_next
        p.add_(exp_avg * ((-lr * mu_next) / (1.0 - mu_product_next)) / denom)
