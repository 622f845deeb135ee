"""The older torch.* names of the decompositions that PyTorch 2.13 still has without a deprecation
warning: torch.svd (U, S, V), torch.pinverse, torch.cholesky_inverse, torch.matrix_exp, torch.vander
(decreasing powers by default), and their Tensor methods. Each is one of torch.linalg's functions
(ops/_linalg_*.py), whose golden cases cover these names too."""
from __future__ import annotations

from ..tensor import Tensor
from . import _linalg_core as core
from ._linalg_lu import lu_unpack
from ._linalg_more import matrix_exp, vander as linalg_vander
from ._linalg_solve import _out, inv
from ._linalg_spectral import pinv, svd as linalg_svd
from ._registry import api

__all__ = ["svd", "pinverse", "cholesky_inverse", "vander", "lu_unpack"]


def svd(input: Tensor, some: bool = True, compute_uv: bool = True, *, out=None):
    """``(U, S, V)`` with ``input = U diag(S) V^T`` (V, not :func:`torch.linalg.svd`'s Vh); ``some=True`` gives
    the reduced U and V. ``compute_uv=False``: U and V are zero-filled ``(*, m, m)`` and ``(*, n, n)``,
    as PyTorch's. Precision and signs as :func:`torch.linalg.svd`'s.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.svd(torch.tensor([[0., 2.], [1., 0.]])).S.tolist()
        [2.0, 1.0]
    """
    from ._return_types import svd as svd_t
    from .creation import zeros
    if not compute_uv:
        core.float_input("linalg.svd", input)
        from ._linalg_spectral import svdvals
        m, n = input._shape[-2:]
        b = input._shape[:-2]
        S = svdvals(input)
        return svd_t((zeros(b + (m, m), device=input.device), S, zeros(b + (n, n), device=input.device)))
    U, S, Vh = linalg_svd(input, full_matrices=not some)
    r = svd_t((U, S, Vh.mT))
    if out is not None:
        return svd_t((_out(r[0], out[0]), _out(r[1], out[1]), _out(r[2], out[2])))
    return r


def pinverse(input: Tensor, rcond: float = 1e-15) -> Tensor:
    """The pseudo-inverse: :func:`torch.linalg.pinv` with ``rtol=rcond``.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.pinverse(torch.tensor([[2., 0.], [0., 0.]])).tolist()
        [[0.5, 0.0], [0.0, 0.0]]
    """
    return pinv(input, rtol=rcond)


def cholesky_inverse(L: Tensor, upper: bool = False, *, out=None) -> Tensor:
    """The inverse of ``A = L L^T`` (``upper=True``: ``A = U^T U``) given its Cholesky factor.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.cholesky_inverse(torch.tensor([[2., 0.], [0., 1.]])).tolist()
        [[0.25, 0.0], [0.0, 1.0]]
    """
    core.square("cholesky_inverse", L)
    return _out(inv(L.mT @ L if upper else L @ L.mT), out)


def vander(x: Tensor, N: int | None = None, increasing: bool = False) -> Tensor:
    """The Vandermonde matrix of the 1-D ``x``: columns ``x ** (N - 1) ... x ** 0`` (``increasing=True``:
    the other way round, as :func:`torch.linalg.vander`).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.vander(torch.tensor([1, 2, 3]), N=3).tolist()
        [[1, 1, 1], [4, 2, 1], [9, 3, 1]]
    """
    if x.dim() != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    if N is not None and N < 0:
        raise RuntimeError("N must be non-negative.")
    n = x._shape[0] if N is None else N
    if n == 0:
        from .creation import empty
        return empty(x._shape[0], 0, dtype=x.dtype, device=x.device)
    if n == 1:
        from .creation import ones
        return ones(x._shape[0], 1, dtype=x.dtype, device=x.device)
    r = linalg_vander(x, N=n)
    return r if increasing else r.flip(-1)


api("svd", svd)
api("pinverse", pinverse)
api("cholesky_inverse", cholesky_inverse)
api("matrix_exp", matrix_exp)
api("vander", vander, tensor=False)
api("lu_unpack", lu_unpack, tensor=False)
