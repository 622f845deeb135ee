"""``torch.optim.SparseAdam``: accepted and checked as PyTorch does, but it can never step here.

SparseAdam updates only the entries that a sparse-layout gradient holds (``nn.Embedding(sparse=True)``).
borch_webgpu's autograd produces dense gradients only, so ``step()`` with a gradient raises PyTorch's
own error for dense gradients ("... please consider Adam instead")."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..autograd.grad_mode import enable_grad, no_grad
from ..tensor import Tensor
from ._checks import check_lr
from .optimizer import Optimizer

__all__ = ["SparseAdam"]


class SparseAdam(Optimizer):
    r"""SparseAdam (``torch.optim.SparseAdam``): Adam for sparse gradients. **Refused at** ``step``:
    gradients here are always dense, and PyTorch's SparseAdam refuses dense gradients with the
    same ``RuntimeError``. Use :class:`Adam` (or :class:`AdamW`) instead.

    Args:
        params: tensors or parameter-group dicts to optimize.
        lr (float): learning rate (default: 1e-3).
        betas (tuple[float, float]): running-average coefficients (default: (0.9, 0.999)).
        eps (float): added to the denominator (default: 1e-8).
        maximize (bool): maximize the objective (default: False).

    Example::

        >>> w = torch.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = torch.optim.SparseAdam([w])
        >>> (w * w).sum().backward()
        >>> opt.step()
        Traceback (most recent call last):
        ...
        RuntimeError: SparseAdam does not support dense gradients, please consider Adam instead
    """

    def __init__(self, params, lr: float | Tensor = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, maximize: bool = False) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 < lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps, "maximize": maximize})
        sparse = [[i, j] for i, g in enumerate(self.param_groups) for j, p in enumerate(g["params"])
                  if getattr(p, "is_sparse", False)]
        if sparse:
            raise ValueError(f"Sparse params at indices {sparse}: SparseAdam requires dense parameter tensors")

    @no_grad()
    def step(self, closure: Callable[[], Any] | None = None):
        """Raise PyTorch's error for the first parameter with a (dense) gradient; nothing changes."""
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                if not getattr(p.grad, "is_sparse", False):
                    raise RuntimeError("SparseAdam does not support dense gradients, please consider Adam instead")
                raise NotImplementedError("SparseAdam: borch_webgpu has no sparse-gradient update; use Adam "
                                          "(dense gradients) instead")
        return loss
