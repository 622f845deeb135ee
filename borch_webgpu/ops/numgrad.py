"""torch.gradient: finite-difference derivatives of sampled values along each dim (second-order central
differences inside, first- or second-order one-sided ones at the edges; uniform spacing or coordinates),
written with narrow, arithmetic and cat, so it runs on WebGPU and differentiates."""
from __future__ import annotations

import builtins
import numbers

from .. import _dtype
from ..tensor import Tensor, _wrap_dim
from ._registry import OpDef, api, register
from .shape import cat

__all__ = ["gradient"]

# a few float32 products and quotients of neighbour differences
register(OpDef("gradient", "composite", None, None, tol=(1e-5, 1e-5), extra={"messages": True},
               doc="central differences inside, one-sided at the edges, joined by cat"))


def _along(f: Tensor, d: int, h, edge_order: int) -> Tensor:
    n = f._shape[d]

    def s(start: int, length: int) -> Tensor:
        return f.narrow(d, start if start >= 0 else n + start, length)
    if isinstance(h, Tensor):  # coordinates: PyTorch's (and numpy's) formulas for uneven steps
        view = [1] * f.dim()
        view[d] = n - 1
        dx = (h[1:] - h[:-1]).reshape(view)
        dx1, dx2 = dx.narrow(d, 0, n - 2), dx.narrow(d, 1, n - 2)
        a, b, c = -dx2 / (dx1 * (dx1 + dx2)), (dx2 - dx1) / (dx1 * dx2), dx1 / (dx2 * (dx1 + dx2))
        center = a * s(0, n - 2) + b * s(1, n - 2) + c * s(2, n - 2)
        h0, h1 = dx.narrow(d, 0, 1), dx.narrow(d, 1, 1) if n > 2 else None
        g1, g2 = dx.narrow(d, n - 2, 1), dx.narrow(d, n - 3, 1) if n > 2 else None
        if edge_order == 1:
            first = (s(1, 1) - s(0, 1)) / h0
            last = (s(-1, 1) - s(-2, 1)) / g1
        else:
            first = (-(2 * h0 + h1) / (h0 * (h0 + h1)) * s(0, 1) + (h0 + h1) / (h0 * h1) * s(1, 1)
                     - h0 / (h1 * (h0 + h1)) * s(2, 1))
            last = (g1 / (g2 * (g2 + g1)) * s(-3, 1) - (g1 + g2) / (g2 * g1) * s(-2, 1)
                    + (2 * g1 + g2) / (g1 * (g2 + g1)) * s(-1, 1))
    else:
        center = (s(2, n - 2) - s(0, n - 2)) / (2 * h)
        if edge_order == 1:
            first, last = (s(1, 1) - s(0, 1)) / h, (s(-1, 1) - s(-2, 1)) / h
        else:
            first = (-1.5 * s(0, 1) + 2 * s(1, 1) - 0.5 * s(2, 1)) / h
            last = (0.5 * s(-3, 1) - 2 * s(-2, 1) + 1.5 * s(-1, 1)) / h
    return cat([first, center, last], d)


def gradient(input: Tensor, *, spacing=1, dim=None, edge_order: int = 1):
    """The derivative of the sampled function ``input`` along each of ``dim`` (all dims by default), one
    tensor per dim: central differences inside, one-sided ones of order ``edge_order`` (1 or 2) at the
    edges. ``spacing`` is one number, one number per dim, or one tensor of coordinates per dim.

    Example::

        >>> torch.gradient(torch.tensor([1., 4., 9., 16., 25.]))
        (tensor([3., 4., 6., 8., 9.]),)
    """
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    dims = list(builtins.range(input.dim())) if dim is None else [dim] if isinstance(dim, builtins.int) else list(dim)
    dims = [_wrap_dim(d, input.dim(), "gradient") for d in dims]
    if isinstance(spacing, (numbers.Number, Tensor)) and not (isinstance(spacing, Tensor) and spacing.dim() == 1):
        hs = [spacing.item() if isinstance(spacing, Tensor) else spacing] * len(dims)
    else:
        hs = list(spacing)
        if len(hs) != len(dims):
            what = ("since dim argument was not given" if dim is None else "to match the dim argument")
            raise RuntimeError(f"torch.gradient expected spacing to be unspecified, a scalar, or a list of length "
                               f"equal to 'self.dim() = {input.dim()}', {what}, but got a list of length {len(hs)}")
    f = input if input.dtype.is_floating_point else input.to(_dtype.get_default_dtype())
    out = []
    for d, h in zip(dims, hs):
        if f._shape[d] < edge_order + 1:
            raise RuntimeError("torch.gradient expected each dimension size to be at least edge_order+1")
        if isinstance(h, Tensor) and h.dim() == 0:
            h = h.item()
        out.append(_along(f, d, h.to(f.dtype) if isinstance(h, Tensor) else h, edge_order))
    return tuple(out)


# ---- the public names (bound by borch_webgpu/_bind.py) ------------------------------------------
api("gradient", gradient, tensor=False)
