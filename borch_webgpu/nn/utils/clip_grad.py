"""Gradient clipping: ``clip_grad_norm_``, ``clip_grad_value_``, ``get_total_norm``, ``clip_grads_with_norm_``."""
from __future__ import annotations

import math
import warnings

from ...autograd import no_grad
from ...tensor import Tensor

__all__ = ["clip_grad_norm_", "clip_grad_norm", "clip_grad_value_", "get_total_norm", "clip_grads_with_norm_"]


def _tensors(parameters) -> list:
    return [parameters] if isinstance(parameters, Tensor) else list(parameters)


@no_grad()
def get_total_norm(tensors, norm_type: float = 2.0, error_if_nonfinite: bool = False, foreach=None) -> Tensor:
    """The ``norm_type``-norm of all the tensors together (as if concatenated into one vector)."""
    from ...linalg import vector_norm
    from ...ops.creation import tensor
    from ...ops.shape import stack
    tensors = [t for t in _tensors(tensors) if t is not None]
    norm_type = float(norm_type)
    if not tensors:
        return tensor(0.0)
    norms = [vector_norm(t, norm_type) for t in tensors]
    dev = norms[0].device
    total = vector_norm(stack([n.to(dev) for n in norms]), norm_type)
    if error_if_nonfinite and not math.isfinite(total.item()):
        raise RuntimeError(f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, so it "
                           "cannot be clipped. To disable this error and scale the gradients by the non-finite norm "
                           "anyway, set `error_if_nonfinite=False`")
    return total


@no_grad()
def clip_grads_with_norm_(parameters, max_norm: float, total_norm: Tensor, foreach=None) -> None:
    """Scale the gradients by ``max_norm / (total_norm + 1e-6)`` when that is below 1."""
    grads = [p.grad for p in _tensors(parameters) if p.grad is not None]
    if not grads:
        return
    coef = (float(max_norm) / (total_norm + 1e-6)).clamp(max=1.0)
    for g in grads:
        g.mul_(coef.to(g.device))


@no_grad()
def clip_grad_norm_(parameters, max_norm: float, norm_type: float = 2.0, error_if_nonfinite: bool = False,
                    foreach=None) -> Tensor:
    """Scale the gradients of ``parameters`` in place so that their total ``norm_type``-norm is at most
    ``max_norm``; returns the total norm before clipping (a tensor, no read from the GPU unless
    ``error_if_nonfinite``).

    Example::

        >>> import borch_webgpu as torch
        >>> p = torch.nn.Parameter(torch.zeros(2))
        >>> p.grad = torch.tensor([3., 4.])
        >>> torch.nn.utils.clip_grad_norm_([p], max_norm=1.0).item()
        5.0
        >>> [round(v, 4) for v in p.grad.tolist()]
        [0.6, 0.8]
    """
    params = _tensors(parameters)
    grads = [p.grad for p in params if p.grad is not None]
    total = get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(params, max_norm, total, foreach)
    return total


@no_grad()
def clip_grad_value_(parameters, clip_value: float, foreach=None) -> None:
    """Clamp every gradient of ``parameters`` to ``[-clip_value, clip_value]`` in place."""
    clip_value = float(clip_value)
    for p in _tensors(parameters):
        if p.grad is not None:
            p.grad.clamp_(min=-clip_value, max=clip_value)


def clip_grad_norm(parameters, max_norm: float, norm_type: float = 2.0, error_if_nonfinite: bool = False,
                   foreach=None) -> Tensor:
    """Deprecated: :func:`clip_grad_norm_` with PyTorch's ``FutureWarning``.

    Example::

        >>> import warnings
        >>> p = torch.nn.Parameter(torch.zeros(2)); p.grad = torch.tensor([3., 4.])
        >>> with warnings.catch_warnings(record=True) as w:
        ...     warnings.simplefilter("always")
        ...     n = torch.nn.utils.clip_grad_norm([p], 1.0)
        >>> n.item(), w[0].category.__name__
        (5.0, 'FutureWarning')
    """
    warnings.warn("`torch.nn.utils.clip_grad_norm` is now deprecated in favor of `torch.nn.utils.clip_grad_norm_`.",
                  FutureWarning, stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)
