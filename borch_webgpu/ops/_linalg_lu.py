"""torch.linalg's LU family: lu_factor, lu_factor_ex, lu, lu_solve, and torch.lu_unpack. The factorization
is ops/_linalg_core.py's LU with partial pivoting (wgsl/linalg.wgsl's ``lu`` kernel on webgpu, float64
numpy on cpu), which leaves LU and the pivots as LAPACK's getrf does, so both match PyTorch's. The
permutation is built on the host from the pivots (on WebGPU a read of the small pivot tensor)."""
from __future__ import annotations

import numpy as np

from .. import _dtype, autograd
from ..tensor import Tensor
from . import _linalg_core as core
from ._linalg_solve import _out
from ._registry import OpDef, register

__all__ = ["lu_factor", "lu_factor_ex", "lu", "lu_solve", "lu_unpack"]

for _name, _doc in [("linalg.lu_factor", "LU with partial pivoting: (LU, pivots)"),
                    ("linalg.lu_factor_ex", "linalg.lu_factor without the error: (LU, pivots, info)"),
                    ("linalg.lu", "P, L, U from LU with partial pivoting"),
                    ("linalg.lu_solve", "A X = B from A's LU and pivots: a permutation and two triangular solves")]:
    register(OpDef(_name, "linalg", ("linalg.wgsl", "lu"), None, tol=(1e-4, 1e-5), doc=_doc,
                   extra={"messages": True, "grad_tol": (2e-4, 2e-4)}))


def _lu_message(op: str):
    def message(col: int, note: str) -> str:
        return (f"torch.{op}: {note}U[{col},{col}] is zero and using it on lu_solve would result in a division by "
                "zero. If you still want to perform the factorization, consider calling linalg.lu(A, pivot) or "
                "linalg.lu_factor_ex(A, pivot)")
    return message


def _check(op: str, A, pivot: bool) -> None:
    if isinstance(A, Tensor) and A.dim() < 2:
        where = "linalg.lu" if op == "linalg.lu" else "torch.lu_factor"
        raise RuntimeError(f"{where}: Expected tensor with 2 or more dimensions. Got size: {list(A._shape)} "
                           "instead")
    if isinstance(A, Tensor) and not A.dtype.is_floating_point:
        dt = _dtype.SCALAR_NAMES[A.dtype.name]
        raise NotImplementedError(f"\"lu_cpu\" not implemented for '{dt}'")
    core.float_input(op, A)
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")


def _permutation(pivots: Tensor, m: int) -> np.ndarray:
    """perm (batch..., m) with (P^T A)[i] = A[perm[i]], from LAPACK's sequential row swaps."""
    from ._checks import host_values
    piv = np.asarray(host_values(pivots, "building LU's permutation")).astype(np.int64).reshape(pivots._shape) - 1
    flat = piv.reshape(-1, piv.shape[-1])
    perm = np.tile(np.arange(m), (flat.shape[0], 1))
    for b in range(flat.shape[0]):
        for i, p in enumerate(flat[b]):
            perm[b, i], perm[b, p] = perm[b, p], perm[b, i]
    return perm.reshape(piv.shape[:-1] + (m,))


def _p_matrix(pivots: Tensor, m: int, device, dtype=np.float32) -> Tensor:
    """P (batch..., m, m) with A = P L U."""
    from .creation import tensor
    perm = _permutation(pivots, m)
    P = np.zeros(perm.shape + (m,), dtype)
    np.put_along_axis(P, perm[..., :, None], 1.0, axis=-1)   # P^T[i, perm[i]] = 1
    return tensor(np.ascontiguousarray(np.swapaxes(P, -1, -2)), device=device)


def _lu_back(A: Tensor, P: Tensor, L: Tensor, U: Tensor, gL: Tensor, gU: Tensor) -> Tensor:
    """Square A = P L U: gA = P L^-T (tril(L^T gL, -1) + triu(gU U^T)) U^-T."""
    from ._linalg_more import solve_triangular
    if A._shape[-1] != A._shape[-2]:
        raise NotImplementedError("linalg.lu: the gradient is implemented for square matrices only")
    phi = (L.mT @ gL).tril(-1) + (gU @ U.mT).triu()
    right = solve_triangular(U.mT, phi, upper=False, left=False)
    return P @ solve_triangular(L.mT, right, upper=True, unitriangular=True)


def _factor(A: Tensor, op: str, check: bool):
    LU, piv, info = core.lu_factor(A.detach())
    if check:
        core.check_info(info, A.dim() > 2, _lu_message(op), RuntimeError)
    m, n = A._shape[-2:]

    def back(g):
        if m != n:
            raise NotImplementedError("linalg.lu_factor: the gradient is implemented for square matrices only")
        P = _p_matrix(piv, m, A.device, A.dtype.np)
        return (_lu_back(A, P, LU.tril(-1) + _eye(LU), LU.triu(), g.tril(-1), g.triu()),)
    autograd.record("LinalgLuFactorExBackward0", [A], [LU], back, [LU])
    return LU, piv, info


def _eye(A: Tensor) -> Tensor:
    from .creation import eye
    return eye(A._shape[-2], A._shape[-1], device=A.device)


def lu_factor(A: Tensor, *, pivot: bool = True, out=None):
    """``(LU, pivots)``: the LU decomposition with partial pivoting of ``(*, m, n)`` A in LAPACK's compact
    form (U on and above the diagonal, L's multipliers below; ``pivots`` int32, 1-based). Raises
    RuntimeError (PyTorch's message) when a pivot is exactly zero. WebGPU: wgsl/linalg.wgsl's LU
    (one workgroup per matrix); float32 precision that of :func:`torch.linalg.inv`'s factorization.
    The gradient is implemented for square A.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.linalg.lu_factor(torch.tensor([[1., 2.], [3., 4.]])).pivots.tolist()
        [2, 2]
    """
    from ._return_types import linalg_lu_factor
    _check("linalg.lu_factor", A, pivot)
    LU, piv, _ = _factor(A, "linalg.lu_factor", True)
    return linalg_lu_factor((LU, piv))


def lu_factor_ex(A: Tensor, *, pivot: bool = True, check_errors: bool = False, out=None):
    """``(LU, pivots, info)``: :func:`lu_factor` that does not raise; ``info`` (int32) is the 1-based column
    of the first zero pivot (0: none).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.linalg.lu_factor_ex(torch.zeros(2, 2)).info.item()
        1
    """
    from ._return_types import linalg_lu_factor_ex
    _check("linalg.lu_factor_ex", A, pivot)
    return linalg_lu_factor_ex(_factor(A, "linalg.lu_factor_ex", check_errors))


def _unpack(LU: Tensor, piv: Tensor):
    m, n = LU._shape[-2:]
    k = min(m, n)
    L = LU[..., :, :k].tril(-1) + _eye(LU[..., :, :k])
    U = LU[..., :k, :].triu()
    return _p_matrix(piv, m, LU.device, LU.dtype.np), L, U


def lu(A: Tensor, *, pivot: bool = True, out=None):
    """``(P, L, U)`` with ``A = P L U``: P a permutation ``(*, m, m)``, L unit lower ``(*, m, k)``, U upper
    ``(*, k, n)`` (k = min(m, n)), from LU with partial pivoting (as :func:`lu_factor`, so equal to
    PyTorch's). The gradient (of L and U) is implemented for square A.

    Example::

        >>> import borch_webgpu as torch
        >>> P, L, U = torch.linalg.lu(torch.tensor([[1., 2.], [3., 4.]]))
        >>> U.tolist()
        [[3.0, 4.0], [0.0, 0.6666666865348816]]
    """
    from ._return_types import linalg_lu
    _check("linalg.lu", A, pivot)
    LU, piv, _ = core.lu_factor(A.detach())
    P, L, U = _unpack(LU, piv)
    autograd.record("LinalgLuBackward0", [A], [L, U], lambda gL, gU: (_lu_back(A, P, L, U, gL, gU),), [L, U])
    return linalg_lu((P, L, U))


def lu_unpack(LU_data: Tensor, LU_pivots: Tensor, unpack_data: bool = True, unpack_pivots: bool = True, *,
              out=None):
    """``(P, L, U)`` from :func:`torch.linalg.lu_factor`'s compact result; a part not asked for is empty.

    Example::

        >>> import borch_webgpu as torch
        >>> LU, piv = torch.linalg.lu_factor(torch.tensor([[1., 2.], [3., 4.]]))
        >>> torch.lu_unpack(LU, piv).P.tolist()
        [[0.0, 1.0], [1.0, 0.0]]
    """
    from ._return_types import lu_unpack as lu_unpack_t
    from .creation import empty
    P, L, U = _unpack(LU_data, LU_pivots)
    none = empty(0, device=LU_data.device)
    return lu_unpack_t((P if unpack_pivots else none, L if unpack_data else none, U if unpack_data else none))


def lu_solve(LU: Tensor, pivots: Tensor, B: Tensor, *, left: bool = True, adjoint: bool = False, out=None) -> Tensor:
    """The solution X of ``A X = B`` (``adjoint=True``: ``A^T X = B``; ``left=False``: ``X A = B``) given A's
    :func:`lu_factor`. A permutation (a 0/1 matrix product, exact) and two triangular solves
    (:func:`torch.linalg.solve_triangular`), so it is differentiable in LU and B.

    Example::

        >>> import borch_webgpu as torch
        >>> LU, piv = torch.linalg.lu_factor(torch.tensor([[2., 0.], [1., 4.]]))
        >>> torch.linalg.lu_solve(LU, piv, torch.tensor([[2.], [3.]])).tolist()
        [[1.0], [0.5]]
    """
    from ._linalg_more import solve_triangular
    core.square("linalg.lu_solve", LU, "LU")
    if B.dim() < 2:
        raise RuntimeError("linalg.lu_solve: The input tensor B must have at least 2 dimensions.")
    n = LU._shape[-1]
    rows, cols = B._shape[-2:]
    if (left and rows != n) or (not left and cols != n):
        eq = "AX = B" if left else "XA = B"
        raise RuntimeError(f"linalg.lu_solve: Incompatible shapes of A and B for the equation {eq} ({n}x{n} and "
                           f"{rows}x{cols})")
    if not left:
        return _out(lu_solve(LU, pivots, B.mT, adjoint=not adjoint).mT, out)
    P = _p_matrix(pivots, n, LU.device, LU.dtype.np)
    L, U = LU.tril(-1) + _eye(LU), LU.triu()
    if adjoint:
        Y = solve_triangular(U.mT, B, upper=False)
        return _out(P @ solve_triangular(L.mT, Y, upper=True, unitriangular=True), out)
    Y = solve_triangular(L, P.mT @ B, upper=False, unitriangular=True)
    return _out(solve_triangular(U, Y, upper=True), out)
