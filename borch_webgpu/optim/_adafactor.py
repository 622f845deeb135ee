"""``torch.optim.Adafactor``: Adam-like steps with a factored second moment (a row and a column
running average per matrix), PyTorch 2.13's single-tensor formula, defaults, errors and state keys
(``step``, ``row_var`` / ``col_var`` for tensors of 2 or more dims, ``variance`` for vectors)."""
from __future__ import annotations

from typing import Any

from .. import _dtype
from ..ops.creation import zeros, zeros_like
from ..tensor import Tensor
from ._checks import group_defaults
from .adam import bump, new_step
from .optimizer import Optimizer, hyper

__all__ = ["Adafactor"]

_FLOAT_EPS = {_dtype.float32: 1.1920928955078125e-07, _dtype.float16: 0.0009765625, _dtype.float64: 2.220446049250313e-16}


class Adafactor(Optimizer):
    r"""Adafactor (``torch.optim.Adafactor``): the second moment of a matrix gradient is kept as its row
    and column means, so the state is O(rows + cols) instead of O(rows * cols).

    Per parameter, at step ``t``, with gradient ``g`` (negated when ``maximize``)::

        beta2_t = 1 - t**beta2_decay;   rho = min(lr, 1/sqrt(t))
        alpha = max(eps2, RMS(p)) * rho
        p = p * (1 - lr * weight_decay)
        R = lerp(R, mean(g**2, -1), 1 - beta2_t);  C = lerp(C, mean(g**2, -2), 1 - beta2_t)   (matrices)
        V = R @ C / max(mean(R, -2), eps1)           (vectors: V = lerp(V, g**2, 1 - beta2_t))
        u = g / sqrt(max(V, eps1**2));   p = p - alpha / max(1, RMS(u) / d) * u

    Args:
        params: tensors or parameter-group dicts to optimize.
        lr (float): learning rate, the cap of the relative step (default: 1e-2).
        beta2_decay (float): the decay exponent of the second-moment coefficient (default: -0.8).
        eps (tuple[float | None, float]): ``eps1`` (added to the denominator; None: the dtype's machine
            epsilon) and ``eps2`` (the smallest parameter scale) (default: (None, 1e-3)).
        d (float): the clipping threshold of the update's RMS (default: 1.0).
        weight_decay (float): decoupled weight decay (default: 0.0).
        foreach, maximize: as in PyTorch (``maximize`` flips the gradient).

    Example::

        >>> w = torch.tensor([[1.0, -2.0], [0.5, 3.0]], requires_grad=True)
        >>> opt = torch.optim.Adafactor([w])
        >>> (w * w).sum().backward(); opt.step()
        >>> sorted(opt.state[w]), w
        (['col_var', 'row_var', 'step'], tensor([[ 0.9732, -1.9834],
                [ 0.4902,  2.9817]], requires_grad=True))
    """

    def __init__(self, params, lr: float | Tensor = 1e-2, beta2_decay: float = -0.8,
                 eps: tuple[float | None, float] = (None, 1e-3), d: float = 1.0, weight_decay: float = 0.0, *,
                 foreach: bool | None = None, maximize: bool = False) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not 0.0 >= beta2_decay:
            raise ValueError(f"beta2_decay should be <= 0 but is: {beta2_decay}")
        if eps[0] is not None and not 0.0 <= eps[0]:
            raise ValueError(f"epsilon1 should be >= 0 but is: {eps[0]}")
        if not 0.0 <= eps[1]:
            raise ValueError(f"epsilon2 should be >= 0 but is: {eps[1]}")
        if not 1.0 <= d:
            raise ValueError(f"Clipping threshold d should be >= 1 but is: {d}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"weight_decay should be >= 0 but is: {weight_decay}")
        defaults = {"lr": lr, "beta2_decay": beta2_decay, "eps": eps, "d": d, "weight_decay": weight_decay,
                    "foreach": foreach, "maximize": maximize}
        super().__init__(params, defaults)

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        group_defaults(self, foreach=None)

    def init_single(self, p: Tensor, group: dict[str, Any], state: dict[str, Any]) -> None:
        state["step"] = new_step()
        if p.grad.dim() > 1:
            row_shape = list(p.grad.shape)
            row_shape[-1] = 1
            state["row_var"] = zeros(row_shape, dtype=p.grad.dtype, device=p.grad.device)
            col_shape = list(p.grad.shape)
            col_shape[-2] = 1
            state["col_var"] = zeros(col_shape, dtype=p.grad.dtype, device=p.grad.device)
        else:
            state["variance"] = zeros_like(p.grad)

    def apply_single(self, p: Tensor, grad: Tensor, group: dict[str, Any], state: dict[str, Any]) -> None:
        lr, weight_decay, d = hyper(group, "lr"), hyper(group, "weight_decay"), hyper(group, "d")
        beta2_decay = hyper(group, "beta2_decay")
        eps1, eps2 = group["eps"]
        if eps1 is None:
            eps1 = _FLOAT_EPS.get(p.dtype, _FLOAT_EPS[_dtype.float32])
        if group["maximize"]:
            grad = -grad
        step = bump(state["step"])
        one_minus_beta2_t = step ** beta2_decay
        rho_t = min(lr, 1 / step ** 0.5)
        alpha = max(eps2, p.norm(2).item() / p.numel() ** 0.5) * rho_t
        if weight_decay != 0:
            p.mul_(1 - lr * weight_decay)
        if grad.dim() > 1:
            row_var, col_var = state["row_var"], state["col_var"]
            row_var.lerp_(grad.norm(dim=-1, keepdim=True).square().div(grad.size(-1)), one_minus_beta2_t)
            col_var.lerp_(grad.norm(dim=-2, keepdim=True).square().div(grad.size(-2)), one_minus_beta2_t)
            var_estimate = (row_var @ col_var).div(row_var.mean(dim=-2, keepdim=True).clamp(min=eps1))
        else:
            variance = state["variance"]
            variance.lerp_(grad * grad, one_minus_beta2_t)
            var_estimate = variance.clone()
        update = var_estimate.clamp(min=eps1 * eps1).rsqrt().mul(grad)
        denom = max(1.0, update.norm(2).item() / (update.numel() ** 0.5 * d))
        p.add_(update, alpha=-alpha / denom)
