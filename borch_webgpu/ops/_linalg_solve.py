"""torch.linalg's LU and Cholesky family: inv, inv_ex, det, slogdet, logdet, solve, cholesky, cholesky_ex,
cholesky_solve, matrix_power. Each forward is one kernel of ops/_linalg_core.py (LU with partial
pivoting, Cholesky; WGSL on webgpu, float64 numpy on cpu); each backward is written with other ops.

Precision (float32, well-conditioned inputs, measured against PyTorch in the goldens): the WebGPU
kernels add n products per element in float32, so results carry about ``cond(A) * n * 6e-8`` relative
error, like PyTorch's own float32 LAPACK; the cpu device computes in float64 and rounds.
"""
from __future__ import annotations

from .. import autograd
from ..tensor import Tensor
from . import _linalg_core as core
from ._registry import OpDef, api, register

__all__ = ["inv", "inv_ex", "det", "slogdet", "logdet", "solve", "cholesky", "cholesky_ex", "cholesky_solve",
           "matrix_power"]

# Against PyTorch's float32 LAPACK on well-conditioned matrices (cond < ~5) up to n = 64: both sides are
# off the exact value by a few 1e-7 of the largest entry (measured on SwiftShader by
# bench/linalg_precision.py: 6e-7 at worst, 1.4e-6 for det; the generator's float64 run widens the
# band by PyTorch's own error). rtol 1e-4 leaves room for cond(A) up to ~100.
TOL = (1e-4, 1e-5)


def _reg(name: str, doc: str, block: str | None = "lu", tol=TOL) -> OpDef:
    return register(OpDef(name, "linalg", ("linalg.wgsl", block) if block else None, None, tol=tol, doc=doc,
                          extra={"messages": True, "grad_tol": (2e-4, 2e-4)}))


INV = _reg("linalg.inv", "LU with partial pivoting, then the inverse by substitution (also torch.inverse)")
INV_EX = _reg("linalg.inv_ex", "linalg.inv without the error: (inverse, info)")
DET = _reg("linalg.det", "the product of LU's pivots (also torch.det)")
SLOGDET = _reg("linalg.slogdet", "sign and log|det| from LU's pivots (also torch.slogdet, torch.logdet)")
SOLVE = _reg("linalg.solve", "A X = B by LU with partial pivoting; batches broadcast")
CHOLESKY = _reg("linalg.cholesky", "A = L L^T, column by column (upper=True gives L^T)", "cholesky")
CHOLESKY_EX = _reg("linalg.cholesky_ex", "linalg.cholesky without the error: (L, info)", "cholesky")
CHOLESKY_SOLVE = _reg("cholesky_solve", "solve with L L^T given L")
MATRIX_POWER = _reg("linalg.matrix_power", "repeated squaring by matmul (inv first for n < 0)", None)


def _inv_message(op: str):
    def message(col: int, note: str) -> str:
        return (f"{op}: {note}The diagonal element {col} is zero, the inversion could not be completed because the "
                "input matrix is singular.")
    return message


def _solve_message(op: str):
    def message(col: int, note: str) -> str:
        return f"{op}: {note}The solver failed because the input matrix is singular."
    return message


def _chol_message(op: str):
    def message(order: int, note: str) -> str:
        return (f"{op}: {note}The factorization could not be completed because the input is not "
                f"positive-definite (the leading minor of order {order} is not positive-definite).")
    return message


def _eye_like(A: Tensor) -> Tensor:
    from .creation import eye
    n = A._shape[-1]
    return eye(n, device=A.device).expand(A._shape)


# ---- inverse, solve --------------------------------------------------------------------------------
def _inv(A: Tensor, op: str, check: bool):
    X, info, *_ = core.lu_solve(A.detach(), _eye_like(A))
    if check:
        core.check_info(info, A.dim() > 2, _inv_message(op))
    autograd.record("LinalgInvExBackward0", [A], [X], lambda g: (-(X.mT @ g @ X.mT),), [X])
    return X, info


def inv(A: Tensor, *, out=None) -> Tensor:
    """The inverse of a square matrix (or of each in a batch ``(*, n, n)``).

    Raises ``torch.linalg.LinAlgError`` (a RuntimeError) when a matrix is singular (a zero pivot in LU
    with partial pivoting), with PyTorch's message. On WebGPU the LU runs in wgsl/linalg.wgsl (one
    workgroup per matrix) and the check reads the pivots' ``info`` back, as PyTorch does on CUDA.
    Precision in float32 on WebGPU (bench/linalg_precision.py, SwiftShader, cond(A) < 5): largest error
    / largest entry 9e-8 at n = 4, 3e-7 at n = 40, 6e-7 at n = 64 (PyTorch's float32 CPU: 1e-7 to 4e-7);
    it grows with ``cond(A)``.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.linalg.inv(torch.tensor([[2., 0.], [0., 4.]])).tolist()
        [[0.5, 0.0], [0.0, 0.25]]
    """
    if isinstance(A, Tensor) and A.dtype.is_complex:
        from . import _complex_linalg
        return _out(_complex_linalg.inv(A), out)
    core.square("linalg.inv", A)
    return _out(_inv(A, "linalg.inv", True)[0], out)


def inv_ex(A: Tensor, *, check_errors: bool = False, out=None):
    """``(inverse, info)``: :func:`inv` that does not raise for a singular matrix; ``info`` (int32, one per
    matrix) is 0 when the inverse exists, else the 1-based column of LU's first zero pivot (that
    matrix's inverse values are then not defined). ``check_errors=True`` raises as :func:`inv` does.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.linalg.inv_ex(torch.zeros(2, 2)).info.item()
        1
    """
    from ._return_types import linalg_inv_ex
    core.square("linalg.inv", A)
    X, info = _inv(A, "linalg.inv_ex", check_errors)
    return linalg_inv_ex((X, info))


def _out(r: Tensor, out):
    if out is None:
        return r
    from .linalg import _out as out_
    return out_(r, out)


def _broadcast_solve(A: Tensor, B: Tensor, left: bool):
    """(A, B expanded to one batch shape, B as (*, n, k), vector?) with PyTorch's checks."""
    import numpy as np
    core.square("linalg.solve", A)
    core.float_input("linalg.solve", B, "B", 1)
    n = A._shape[-1]
    # PyTorch: B is a vector when B.ndim == 1 or (B.ndim == A.ndim - 1 and B's shape is A's batch + (n,))
    vector = B.dim() == 1 or (B.dim() == A.dim() - 1 and B._shape == A._shape[:-1])
    Bm = B.unsqueeze(-1) if vector else B
    if Bm._shape[-2] != n:
        raise RuntimeError(f"linalg.solve: Incompatible shapes of A and B for the equation AX = B "
                           f"({n}x{n} and {Bm._shape[-2]}x{Bm._shape[-1]})")
    try:
        batch = tuple(np.broadcast_shapes(A._shape[:-2], Bm._shape[:-2]))
    except ValueError:
        from .linalg import _broadcast_batch
        _broadcast_batch(Bm._shape[:-2], A._shape[:-2])
        raise
    return A.expand(batch + (n, n)), Bm.expand(batch + Bm._shape[-2:]), vector


def solve(A: Tensor, B: Tensor, *, left: bool = True, out=None) -> Tensor:
    """The solution X of ``A X = B`` (``left=False``: ``X A = B``). A is ``(*, n, n)``; B is ``(*, n, k)``
    or a vector ``(*, n)``; batch dims broadcast. Raises ``torch.linalg.LinAlgError`` for a singular A.

    LU with partial pivoting on ``[A | B]`` (wgsl/linalg.wgsl on WebGPU, one workgroup per matrix).
    Precision in float32 on WebGPU: that of :func:`inv` (largest error / largest entry below 6e-7 up to
    n = 64 at cond(A) < 5, measured on SwiftShader by bench/linalg_precision.py); it grows with ``cond(A)``.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.linalg.solve(torch.tensor([[2., 0.], [1., 4.]]), torch.tensor([2., 3.])).tolist()
        [1.0, 0.5]
    """
    return _out(_solve(A, B, left, True)[0], out)


def _solve(A: Tensor, B: Tensor, left: bool, check: bool, op: str = "torch.linalg.solve"):
    """(X, info) of solve; raises LinAlgError when check is set and a matrix is singular."""
    if not left:
        X, info = _solve(A.mT, B.mT, True, check, op)
        return X.mT, info
    Ae, Be, vector = _broadcast_solve(A, B, left)
    X, info, *_ = core.lu_solve(Ae.detach(), Be.detach())
    if check:
        core.check_info(info, Ae.dim() > 2, _solve_message(op))

    def back(g):
        from .elementwise import sum_to
        gB = solve(Ae.mT, g.unsqueeze(-1) if vector else g)
        gA = -(gB @ X.mT)
        return sum_to(gA, A._shape), sum_to(gB.squeeze(-1) if vector else gB, B._shape)
    Xr = X.squeeze(-1) if vector else X
    autograd.record("LinalgSolveExBackward0", [A, B], [Xr], back, [X])
    return Xr, info


# ---- determinants -------------------------------------------------------------------------------------
def _lu_det(A: Tensor):
    with autograd.no_grad():
        return core.lu_solve(A.detach())


def det(A: Tensor, *, out=None) -> Tensor:
    """The determinant of a square matrix (or of each in a batch): the product of LU's pivots and the
    permutation's sign. Its gradient is ``g * det * A^-T`` (PyTorch's for an invertible A; for a singular
    A this one is not finite). Precision in float32 on WebGPU: 1.4e-6 relative at worst up to n = 64
    (bench/linalg_precision.py, SwiftShader, cond(A) < 5).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.linalg.det(torch.tensor([[1., 2.], [3., 4.]])).item()
        -2.0
    """
    if isinstance(A, Tensor) and A.dtype.is_complex:
        from . import _complex_linalg
        return _out(_complex_linalg.det(A), out)
    core.square("linalg.det", A)
    d = _lu_det(A)[2]
    autograd.record("LinalgDetBackward0", [A], [d],
                    lambda g: ((g * d).unsqueeze(-1).unsqueeze(-1) * _inv(A, "linalg.det", False)[0].mT,), [d])
    return _out(d, out)


def slogdet(A: Tensor, *, out=None):
    """``(sign, logabsdet)`` of a square matrix (or of each in a batch): sign is 0 and logabsdet -inf
    for a singular matrix. Gradient (of logabsdet) ``g * A^-T``. float32 on WebGPU: logabsdet within
    3e-7 relative up to n = 64 (bench/linalg_precision.py, SwiftShader).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.linalg.slogdet(torch.tensor([[1., 2.], [3., 4.]])).sign.item()
        -1.0
    """
    from ._return_types import linalg_slogdet
    core.square("linalg.slogdet", A)
    return linalg_slogdet(_slogdet(A, out))


def _slogdet(A: Tensor, out=None):
    _, _, _, sign, logabs = _lu_det(A)
    autograd.record("LinalgSlogdetBackward0", [A], [sign, logabs],
                    lambda gs, gl: (gl.unsqueeze(-1).unsqueeze(-1) * _inv(A, "linalg.slogdet", False)[0].mT,))
    if out is not None:
        return _out(sign, out[0]), _out(logabs, out[1])
    return sign, logabs


def _torch_slogdet(A: Tensor, *, out=None):
    """``torch.slogdet``: :func:`torch.linalg.slogdet` under its older name (its result type is
    ``torch.return_types.slogdet``).

    Example::

        >>> import borch_webgpu as torch
        >>> round(torch.slogdet(torch.tensor([[2., 0.], [0., 3.]])).logabsdet.item(), 5)
        1.79176
    """
    from ._return_types import slogdet as slogdet_t
    core.square("linalg.slogdet", A)
    return slogdet_t(_slogdet(A, out))


def logdet(A: Tensor) -> Tensor:
    """log(det(A)): NaN where the determinant is negative, -inf where it is zero (PyTorch's rule).

    Example::

        >>> import borch_webgpu as torch
        >>> round(torch.logdet(torch.tensor([[2., 0.], [0., 3.]])).item(), 5)
        1.79176
    """
    from .elementwise import where
    core.square("logdet", A)
    sign, logabs = _slogdet(A)
    return where(sign < 0, float("nan"), logabs)


# ---- Cholesky ------------------------------------------------------------------------------------------
def _cholesky(A: Tensor, upper: bool, check: bool, op: str = "linalg.cholesky"):
    L, info = core.cholesky(A.detach())
    if check:
        core.check_info(info, A.dim() > 2, _chol_message(op))
    L = L.tril()

    def back(g):
        gL = g.mT if upper else g
        P = (L.mT @ gL).tril()
        P = P - 0.5 * P.diagonal(dim1=-2, dim2=-1).diag_embed()
        Li = inv(L)
        G = Li.mT @ P @ Li
        return (0.5 * (G + G.mT),)
    R = L.mT.contiguous() if upper else L
    autograd.record("LinalgCholeskyExBackward0", [A], [R], back, [L])
    return R, info


def cholesky(A: Tensor, *, upper: bool = False, out=None) -> Tensor:
    """The Cholesky factor L (lower, ``A = L L^T``; ``upper=True``: U = L^T, ``A = U^T U``) of a symmetric
    positive-definite matrix, or of each in a batch. Only the lower triangle of A is read. Raises
    ``torch.linalg.LinAlgError`` naming the first leading minor that is not positive-definite.
    WebGPU: wgsl/linalg.wgsl, one workgroup per matrix; float32 precision: largest error / largest entry
    1e-7 at n = 16, 3e-7 at n = 64 (bench/linalg_precision.py, SwiftShader).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.linalg.cholesky(torch.tensor([[4., 2.], [2., 5.]])).tolist()
        [[2.0, 0.0], [1.0, 2.0]]
    """
    core.square("linalg.cholesky", A)
    return _out(_cholesky(A, upper, True)[0], out)


def cholesky_ex(A: Tensor, *, upper: bool = False, check_errors: bool = False, out=None):
    """``(L, info)``: :func:`cholesky` that does not raise; ``info`` (int32) is the order of the first
    leading minor that is not positive-definite (0: success; L is then not defined).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.linalg.cholesky_ex(-torch.eye(2)).info.item()
        1
    """
    from ._return_types import linalg_cholesky_ex
    core.square("linalg.cholesky", A)
    return linalg_cholesky_ex(_cholesky(A, upper, check_errors, "linalg.cholesky_ex"))


def cholesky_solve(B: Tensor, L: Tensor, upper: bool = False, *, out=None) -> Tensor:
    """The solution X of ``A X = B`` given A's Cholesky factor L (``A = L L^T``; ``upper=True``:
    ``A = U^T U``). Computed as :func:`torch.linalg.solve` on the rebuilt A (differentiable in B and L).

    Example::

        >>> import borch_webgpu as torch
        >>> L = torch.tensor([[2., 0.], [1., 2.]])
        >>> torch.cholesky_solve(torch.tensor([[4.], [2.]]), L).tolist()
        [[1.0], [0.0]]
    """
    core.float_input("cholesky_solve", B, "B")
    core.float_input("cholesky_solve", L, "L")
    if L._shape[-1] != L._shape[-2] or L._shape[-1] != B._shape[-2]:
        raise RuntimeError(f"Incompatible matrix sizes for cholesky_solve: each A matrix is {L._shape[-2]} by "
                           f"{L._shape[-1]} but each b matrix is {B._shape[-2]} by {B._shape[-1]}")
    A = L.mT @ L if upper else L @ L.mT
    return _out(solve(A, B), out)


def matrix_power(A: Tensor, n: int, *, out=None) -> Tensor:
    """``A`` to the integer power n (``n = 0``: the identity; ``n < 0``: the inverse's power), by repeated
    squaring with matmul, so it is differentiable.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.linalg.matrix_power(torch.tensor([[1., 1.], [0., 1.]]), 3).tolist()
        [[1.0, 3.0], [0.0, 1.0]]
    """
    core.square("linalg.matrix_power", A)
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"linalg_matrix_power(): argument 'n' (position 2) must be int, not {type(n).__name__}")
    if n == 0:
        return _out(_eye_like(A).clone(), out)
    base = inv(A) if n < 0 else A
    n = abs(n)
    result = None
    while True:
        if n & 1:
            result = base if result is None else result @ base
        n >>= 1
        if not n:
            break
        base = base @ base
    return _out(result, out)


api("inverse", inv)
api("det", det)
api("logdet", logdet)
api("slogdet", _torch_slogdet)
api("cholesky_solve", cholesky_solve)
api("matrix_power", matrix_power)
