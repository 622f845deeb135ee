"""Householder reflectors: torch.geqrf (QR in LAPACK's compact form: wgsl/linalg.wgsl's qr kernel on
webgpu, numpy's LAPACK on cpu) and torch.linalg.householder_product (the product of the reflectors,
made of matrix products, so differentiable in both arguments as PyTorch's)."""
from __future__ import annotations

from ..tensor import Tensor
from . import _linalg_core as core
from ._linalg_solve import _out
from ._registry import OpDef, api, register

__all__ = ["geqrf", "householder_product"]

# geqrf: the same reflections as qr (its tolerance); householder_product: n products per entry
for _name, _doc, _block in [("geqrf", "Householder QR in LAPACK's compact form: (a, tau)", "qr"),
                            ("linalg.householder_product", "the product of Householder reflectors", None)]:
    register(OpDef(_name, "linalg", ("linalg.wgsl", _block) if _block else None, None, tol=(1e-4, 5e-5), doc=_doc,
                   extra={"messages": True, "grad_tol": (2e-4, 2e-4)}))


def geqrf(input: Tensor, *, out=None):
    """``(a, tau)``: the QR decomposition of ``(*, m, n)`` input as LAPACK's geqrf leaves it: R on and above
    the diagonal of ``a``, below it the Householder vectors (each with an implied leading 1), and their
    scalars ``tau`` ``(*, min(m, n))``; :func:`torch.linalg.householder_product` rebuilds Q. The same
    reflections (and signs) as :func:`torch.linalg.qr`, the same precision. Not differentiable (as in
    PyTorch).

    Example::

        >>> import borch_webgpu as torch
        >>> a, tau = torch.geqrf(torch.tensor([[3., 1.], [4., 2.]]))
        >>> [round(v, 4) for v in tau.tolist()]
        [1.6, 0.0]
    """
    from ._return_types import geqrf as geqrf_t
    if isinstance(input, Tensor) and input.dim() < 2:
        raise RuntimeError("torch.geqrf: input must have at least 2 dimensions.")
    core.float_input("torch.geqrf", input, "input")
    a, tau = core.geqrf(input.detach())
    if out is not None:
        return geqrf_t((_out(a, out[0]), _out(tau, out[1])))
    return geqrf_t((a, tau))


def householder_product(A: Tensor, tau: Tensor, *, out=None) -> Tensor:
    """The first n columns of ``H_1 H_2 ... H_k`` for ``(*, m, n)`` A (m >= n) holding the reflectors' vectors
    below its diagonal (leading 1 implied) and ``tau`` ``(*, k)``, k <= n: with :func:`torch.geqrf`'s
    result, Q of the QR decomposition. Made of k rank-1 updates by matrix products (differentiable in A
    and tau); float32 error a few 1e-7 of the largest entry.

    Example::

        >>> import borch_webgpu as torch
        >>> A = torch.tensor([[3., 1.], [4., 2.]])
        >>> Q = torch.linalg.householder_product(*torch.geqrf(A))
        >>> [[round(v, 4) for v in row] for row in Q.tolist()]
        [[-0.6, -0.8], [-0.8, 0.6]]
    """
    from .creation import eye
    op = "torch.linalg.householder_product"
    core.float_input(op, A, "input")
    m, n = A._shape[-2:]
    k = tau._shape[-1] if tau.dim() else 1
    if m < n:
        raise RuntimeError(f"{op}: input.shape[-2] must be greater than or equal to input.shape[-1]")
    if n < k:
        raise RuntimeError(f"{op}: input.shape[-1] must be greater than or equal to tau.shape[-1]")
    if tau.dim() != A.dim() - 1 or tau._shape[:-1] != A._shape[:-2]:
        raise RuntimeError(f"{op}: Expected batch dimensions of tau to be equal to input.shape[:-2], but got "
                           f"{list(tau._shape[:-1])}")
    I = eye(m, n, device=A.device)
    V = A.tril(-1) + I
    Q = I.expand(A._shape[:-2] + (m, n))
    for i in range(k - 1, -1, -1):
        v = V[..., :, i:i + 1]
        Q = Q - (tau[..., i:i + 1].unsqueeze(-1) * v) @ (v.mT @ Q)
    return _out(Q, out)


api("geqrf", geqrf)
