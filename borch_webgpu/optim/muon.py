"""``torch.optim.Muon``: momentum whose update is orthogonalized by a Newton-Schulz iteration in
bfloat16 (PyTorch 2.13's formula, defaults, errors and state key ``momentum_buffer``), for the 2-D
weights of hidden layers."""
from __future__ import annotations

import math
from typing import Any

from ..ops.creation import zeros_like
from ..ops.linalg import addmm
from ..tensor import Tensor
from .optimizer import Optimizer, hyper

__all__ = ["Muon"]

EPS = 1e-7
DEFAULT_A, DEFAULT_B, DEFAULT_C = 3.4445, -4.7750, 2.0315
DEFAULT_NS_STEPS = 5


def _zeropower_via_newtonschulz(grad: Tensor, ns_coefficients: tuple[float, float, float], ns_steps: int,
                                eps: float) -> Tensor:
    """PyTorch's quintic Newton-Schulz iteration towards the orthogonal factor of ``grad`` (in bfloat16)."""
    if ns_steps >= 100:
        raise ValueError("Number of steps must be less than 100 for computational efficiency")
    if len(grad.shape) != 2:
        raise ValueError("Input tensor gradient must be a 2D matrix")
    if len(ns_coefficients) != 3:
        raise ValueError("Coefficients must be a tuple of exactly 3 values")
    a, b, c = ns_coefficients
    ortho = grad.bfloat16()
    tall = grad.size(0) > grad.size(1)
    if tall:
        ortho = ortho.T
    ortho.div_(ortho.norm().clamp(min=eps))
    for _ in range(ns_steps):
        gram = ortho @ ortho.T
        update = addmm(gram, gram, gram, beta=b, alpha=c)
        ortho = addmm(ortho, update, ortho, beta=a)
    return ortho.T if tall else ortho


def _adjust_lr(lr: float, adjust_lr_fn: str | None, shape) -> float:
    A, B = shape[:2]   # noqa: N806 - PyTorch's names
    if adjust_lr_fn is None or adjust_lr_fn == "original":
        ratio = math.sqrt(max(1, A / B))
    elif adjust_lr_fn == "match_rms_adamw":
        ratio = 0.2 * math.sqrt(max(A, B))
    else:
        ratio = 1.0
    return lr * ratio


class Muon(Optimizer):
    r"""Muon (``torch.optim.Muon``): SGD momentum, then the update replaced by an approximately orthogonal
    matrix of the same shape (``ns_steps`` Newton-Schulz iterations on its bfloat16 copy).

    Per 2-D parameter, with gradient ``g``::

        B = lerp(B, g, 1 - momentum);   U = lerp(g, B, momentum) if nesterov else B
        O = NS(U);   p = p * (1 - lr * weight_decay);   p = p - adjusted_lr * O

    ``adjusted_lr`` is ``lr * sqrt(max(1, rows / cols))`` (``adjust_lr_fn="original"``, the default) or
    ``lr * 0.2 * sqrt(max(rows, cols))`` (``"match_rms_adamw"``). Biases, embeddings and other
    non-matrix parameters belong to another optimizer (AdamW): Muon refuses them, as PyTorch does.

    Args:
        params: 2-D tensors or parameter-group dicts to optimize.
        lr (float): learning rate (default: 1e-3).
        weight_decay (float): decoupled weight decay (default: 0.1).
        momentum (float): momentum factor (default: 0.95).
        nesterov (bool): Nesterov momentum (default: True).
        ns_coefficients (tuple[float, float, float]): the iteration's polynomial (default:
            (3.4445, -4.775, 2.0315)).
        eps (float): the floor of the norm the update is divided by first (default: 1e-7).
        ns_steps (int): Newton-Schulz iterations, fewer than 100 (default: 5).
        adjust_lr_fn (str | None): ``"original"`` or ``"match_rms_adamw"`` (default: None, "original").

    Example::

        >>> w = torch.tensor([[1.0, -2.0], [0.5, 3.0]], requires_grad=True)
        >>> opt = torch.optim.Muon([w], lr=0.02)
        >>> (w * w).sum().backward(); opt.step()
        >>> list(opt.state[w]), w.dtype
        (['momentum_buffer'], torch.float32)
    """

    def __init__(self, params, lr: float | Tensor = 1e-3, weight_decay: float = 0.1, momentum: float = 0.95,
                 nesterov: bool = True,
                 ns_coefficients: tuple[float, float, float] = (DEFAULT_A, DEFAULT_B, DEFAULT_C),
                 eps: float = EPS, ns_steps: int = DEFAULT_NS_STEPS, adjust_lr_fn: str | None = None) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not 0.0 <= momentum:
            raise ValueError(f"momentum should be >= 0 but is: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"weight decay should be >= 0 but is: {weight_decay}")
        if adjust_lr_fn is not None and adjust_lr_fn not in ["original", "match_rms_adamw"]:
            raise ValueError(f"Adjust learning rate function {adjust_lr_fn} is not supported")
        defaults = {"lr": lr, "weight_decay": weight_decay, "momentum": momentum, "nesterov": nesterov,
                    "ns_coefficients": ns_coefficients, "eps": eps, "ns_steps": ns_steps,
                    "adjust_lr_fn": adjust_lr_fn}
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                if p.ndim != 2:
                    raise ValueError(f"Muon only supports 2D parameters whereas we found a parameter with size: "
                                     f"{p.size()}")

    def _step_group(self, group: dict[str, Any]) -> None:
        for p in group["params"]:   # PyTorch checks the whole group before it updates any parameter
            if p.grad is not None:
                if p.is_complex():
                    raise RuntimeError("Muon does not support complex parameters")
                if p.grad.is_sparse:
                    raise RuntimeError("Muon does not support sparse gradients")
        super()._step_group(group)

    def init_single(self, p: Tensor, group: dict[str, Any], state: dict[str, Any]) -> None:
        state["momentum_buffer"] = zeros_like(p.grad)

    def apply_single(self, p: Tensor, grad: Tensor, group: dict[str, Any], state: dict[str, Any]) -> None:
        lr, momentum = hyper(group, "lr"), group["momentum"]
        if grad.ndim != 2:
            raise ValueError("Param gradient must be a 2D matrix")
        buf = state["momentum_buffer"]
        buf.lerp_(grad, 1 - momentum)
        update = grad.lerp(buf, momentum) if group["nesterov"] else buf
        update = _zeropower_via_newtonschulz(update, group["ns_coefficients"], group["ns_steps"], group["eps"])
        adjusted = _adjust_lr(lr, group["adjust_lr_fn"], p.shape)
        p.mul_(1 - lr * group["weight_decay"])
        p.add_(update, alpha=-adjusted)
