"""torch.linalg's orthogonal decompositions and what is built on them: qr, eigh, eigvalsh, svd, svdvals,
pinv, matrix_rank, lstsq. The forwards are ops/_linalg_core.py's kernels (Householder QR, cyclic
Jacobi, one-sided Jacobi: wgsl/linalg.wgsl on webgpu, float64 numpy on cpu); the backwards are
PyTorch's formulas written with other ops (checked against PyTorch's autograd in the goldens).

Sign conventions: qr's R has LAPACK's signs (R[k, k] = -sign(A[k, k]) * the column's norm, after the
earlier reflections), so Q and R match PyTorch's. Eigenvectors and singular vectors are defined only
up to sign; ours may differ from PyTorch's by a sign per vector (PyTorch's own tests compare them up
to sign, and so do the goldens: tests/golden/cases_linalg_decomp.py, SIGNFIX_*).
"""
from __future__ import annotations

from .. import _dtype, autograd
from ..tensor import Tensor
from . import _linalg_core as core
from ._linalg_solve import _out, solve
from ._registry import OpDef, register

__all__ = ["qr", "eigh", "eigvalsh", "svd", "svdvals", "pinv", "matrix_rank", "lstsq"]

# Orthogonal transformations are backward stable: errors of a few 1e-7 of the largest entry (or
# singular value); eigenvectors and singular vectors also divide by the gap to the next value, which
# the goldens keep near spread / n. Measured on SwiftShader by bench/linalg_precision.py up to n = 64
# (largest error / largest entry): R 8e-7, eigenvalues 1e-6, singular values 2.4e-7, eigenvectors
# 9e-6 and singular vectors 3.3e-5 at gaps of 0.08 and 0.04.
TOL = (1e-4, 5e-5)


def _reg(name: str, doc: str, block: str) -> OpDef:
    return register(OpDef(name, "linalg", ("linalg.wgsl", block), None, tol=TOL, doc=doc,
                          extra={"messages": True, "grad_tol": (5e-4, 5e-4)}))


QR = _reg("linalg.qr", "Householder QR (modes 'reduced', 'complete', 'r')", "qr")
EIGH = _reg("linalg.eigh", "cyclic Jacobi on the symmetric matrix from one triangle; ascending", "eigh")
EIGVALSH = _reg("linalg.eigvalsh", "linalg.eigh's eigenvalues", "eigh")
SVD = _reg("linalg.svd", "one-sided Jacobi; singular values descending", "svd")
SVDVALS = _reg("linalg.svdvals", "linalg.svd's singular values", "svd")
PINV = _reg("linalg.pinv", "V diag(1/s) U^T over the singular values above the cutoff", "svd")
MATRIX_RANK = _reg("linalg.matrix_rank", "singular values above the cutoff, counted", "svd")
LSTSQ = _reg("linalg.lstsq", "pinv(A) @ B", "svd")


def _finite(A: Tensor, message: str) -> None:
    """PyTorch's LinAlgError for non-finite input to eigh and svd (whose LAPACK calls fail on it): at once on
    cpu; on WebGPU raised at the next read of a value (ops/_checks.py), without waiting for the GPU."""
    from ._checks import device_check
    with autograd.no_grad():
        device_check(A.isfinite().all(), core.LinAlgError, message)


_SVD_NONFINITE = "linalg.svd: The algorithm failed to converge because the input matrix contained non-finite values."
_EIGH_NONFINITE = ("linalg.eigh: The algorithm failed to converge because the input matrix is ill-conditioned or "
                   "has too many repeated eigenvalues (the input has non-finite values).")


def _skew_over_gap(X: Tensor, w: Tensor) -> Tensor:
    """(X - X^T) / (w_j - w_i) off the diagonal, 0 on it (the eigen and singular vectors' backward)."""
    E = w.unsqueeze(-2) - w.unsqueeze(-1)
    from .creation import eye
    I = eye(w._shape[-1], device=w.device, dtype=_dtype.bool)
    return ((X - X.mT) / E.masked_fill(I, 1.0)).masked_fill(I, 0.0)


# ---- QR ------------------------------------------------------------------------------------------------
def _qr_back(Q, R, gQ, gR):
    """m >= n: gA = (gQ + Q copyltu(R gR^T - gQ^T Q)) R^-T."""
    M = R @ gR.mT - gQ.mT @ Q
    low = M.tril(-1)
    C = low + low.mT + M.diagonal(dim1=-2, dim2=-1).diag_embed()
    return solve(R, (gQ + Q @ C).mT).mT


def qr(A: Tensor, mode: str = "reduced", *, out=None):
    """``(Q, R)`` with ``A = Q R``, Q orthonormal columns, R upper triangular, for ``(*, m, n)``.
    ``mode='reduced'``: Q ``(*, m, k)``, R ``(*, k, n)`` (k = min(m, n)); ``'complete'``: Q ``(*, m, m)``,
    R ``(*, m, n)``; ``'r'``: Q empty, R reduced. Householder reflections with LAPACK's signs, so Q and R
    match PyTorch's (wgsl/linalg.wgsl on WebGPU, one workgroup per matrix). float32 on WebGPU: R's largest
    error / largest entry 5e-7 at n = 16, 8e-7 at n = 64 (bench/linalg_precision.py, SwiftShader;
    PyTorch's float32 CPU: 2e-7 and 5e-7).

    Example::

        >>> import borch_webgpu as torch
        >>> Q, R = torch.linalg.qr(torch.tensor([[3., 1.], [4., 2.]]))
        >>> [[round(v, 4) for v in row] for row in R.tolist()]
        [[-5.0, -2.2], [0.0, 0.4]]
    """
    from ._return_types import linalg_qr
    core.float_input("linalg.qr", A)
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), 'r', "
                           "or 'complete'")
    m, n = A._shape[-2:]
    Q, R = core.qr(A.detach(), mode == "complete")
    R = R.triu()
    if mode == "r":
        from .creation import empty
        Q = empty(0, device=A.device)
        autograd.record("LinalgQrBackward0", [A], [R], lambda gR: _qr_r_error(), [])
        return linalg_qr((Q, R))

    def back(gQ, gR):
        if mode == "complete" and m > n:
            raise RuntimeError("The QR decomposition is not differentiable when mode='complete' and nrows > ncols.")
        if m >= n:
            return (_qr_back(Q, R, gQ, gR),)
        Y = A.detach()[..., m:]
        gY = Q @ gR[..., m:]
        gX = _qr_back(Q, R[..., :m], gQ + Y @ gR[..., m:].mT, gR[..., :m])
        from .shape import cat
        return (cat([gX, gY], -1),)
    autograd.record("LinalgQrBackward0", [A], [Q, R], back, [Q, R])
    if out is not None:
        return linalg_qr((_out(Q, out[0]), _out(R, out[1])))
    return linalg_qr((Q, R))


def _qr_r_error():
    raise RuntimeError("The derivative of linalg.qr depends on Q, which is not computed when mode='r'. Please use "
                       "linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr.")


# ---- eigh --------------------------------------------------------------------------------------------
def _symmetric(op: str, A: Tensor, UPLO: str) -> Tensor:
    if isinstance(A, Tensor) and A.dim() >= 2 and not A.dtype.is_floating_point:
        dt = _dtype.SCALAR_NAMES[A.dtype.name]
        raise NotImplementedError(f"\"linalg_eigh_cpu\" not implemented for '{dt}'")
    core.square(op, A)
    if UPLO not in ("L", "U", "l", "u"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    T = A.tril() if UPLO in ("L", "l") else A.triu()
    return T + T.tril(-1).mT if UPLO in ("L", "l") else T + T.triu(1).mT


def eigh(A: Tensor, UPLO: str = "L", *, out=None):
    """``(eigenvalues, eigenvectors)`` of a symmetric matrix (or of each in a batch), read from its lower
    (``UPLO='L'``) or upper triangle: eigenvalues ascending, eigenvectors in the columns, each defined up
    to sign (ours may differ from PyTorch's by a sign per column). Cyclic Jacobi rotations
    (wgsl/linalg.wgsl on WebGPU, one workgroup per matrix). float32 on WebGPU (bench/linalg_precision.py,
    SwiftShader, eigenvalues spread over [-2, 3]): eigenvalues within 4e-7 (n = 16) and 1e-6 (n = 64) of
    the largest (PyTorch's float32 CPU: 4e-7, 1.5e-6); eigenvectors within 1.2e-6 and 9e-6, errors that
    grow as the gap to the nearest other eigenvalue shrinks. The gradient divides by the gaps: it is
    not finite for repeated eigenvalues. Non-finite input raises ``torch.linalg.LinAlgError`` as
    PyTorch's does (on WebGPU at the next read of a value, without waiting for the GPU here).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.linalg.eigh(torch.tensor([[2., 1.], [1., 2.]])).eigenvalues.tolist()
        [1.0, 3.0]
    """
    if isinstance(A, Tensor) and A.dtype.is_complex:
        from . import _complex_linalg
        from ._return_types import linalg_eigh
        return linalg_eigh(_complex_linalg.eigh(A, UPLO))
    from ._return_types import linalg_eigh
    S = _symmetric("linalg.eigh", A, UPLO)
    _finite(S, _EIGH_NONFINITE)
    w, V = core.eigh(S.detach())

    def back(gw, gV):
        inner = _skew_over_gap(0.5 * (V.mT @ gV), w) + gw.diag_embed()
        return (V @ inner @ V.mT,)
    autograd.record("LinalgEighBackward0", [A], [w, V], back, [w, V])
    if out is not None:
        return linalg_eigh((_out(w, out[0]), _out(V, out[1])))
    return linalg_eigh((w, V))


def eigvalsh(A: Tensor, UPLO: str = "L", *, out=None) -> Tensor:
    """The eigenvalues of a symmetric matrix, ascending (:func:`eigh`'s first result; the same precision).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.linalg.eigvalsh(torch.tensor([[2., 0.], [0., 1.]])).tolist()
        [1.0, 2.0]
    """
    if isinstance(A, Tensor) and A.dtype.is_complex:
        from . import _complex_linalg
        return _complex_linalg.eigh(A, UPLO, eigenvectors=False)
    _symmetric("linalg.eigh", A, UPLO)
    return _out(eigh(A, UPLO)[0], out)


# ---- SVD ----------------------------------------------------------------------------------------------
def _svd(A: Tensor):
    _finite(A, _SVD_NONFINITE)
    U, S, Vh = core.svd(A.detach())

    def back(gU, gS, gVh):
        V, gV = Vh.mT, gVh.mT
        J, K = U.mT @ gU, V.mT @ gV
        S2 = S * S
        inner = _skew_over_gap(J, S2) * S.unsqueeze(-2) + S.unsqueeze(-1) * _skew_over_gap(K, S2) + gS.diag_embed()
        G = U @ inner @ Vh
        Si = 1.0 / S
        G = G + ((gU - U @ J) * Si.unsqueeze(-2)) @ Vh + U @ (Si.unsqueeze(-1) * (gV - V @ K).mT)
        return (G,)
    autograd.record("LinalgSvdBackward0", [A], [U, S, Vh], back, [U, S, Vh])
    return U, S, Vh


def svd(A: Tensor, full_matrices: bool = True, *, driver=None, out=None):
    """``(U, S, Vh)`` with ``A = U diag(S) Vh`` for ``(*, m, n)``: S descending (k = min(m, n) values);
    ``full_matrices=True`` (PyTorch's default) gives U ``(*, m, m)`` and Vh ``(*, n, n)``, False the reduced
    ``(*, m, k)`` and ``(*, k, n)``. Singular vectors are defined up to a sign per pair (ours may differ
    from PyTorch's by one), and the columns that complete U or Vh to a square matrix are any
    orthonormal basis of the complement (here from a complete QR). ``driver`` is refused with PyTorch's
    message, as PyTorch refuses it for tensors that are not on CUDA.
    One-sided Jacobi rotations (wgsl/linalg.wgsl on WebGPU, one workgroup per matrix; S from
    ``||A v||``). float32 on WebGPU (bench/linalg_precision.py, SwiftShader, values spread over
    [0.5, 3]): singular values within 2.4e-7 of the largest up to n = 64 (PyTorch's float32 CPU:
    4e-7); U within 2.8e-6 (n = 16) and 3.3e-5 (n = 64), errors that grow as the gap to the nearest
    other value shrinks. The gradient needs ``full_matrices=False`` and distinct singular values, as
    PyTorch's. For a singular value that is numerically zero (at most ``eps * max(m, n) * S[0]``) the
    vectors are any orthonormal completion, as PyTorch's (on WebGPU from a Householder QR of the others).
    Non-finite input raises ``torch.linalg.LinAlgError`` with PyTorch's message (on WebGPU at the next
    read of a value).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.linalg.svd(torch.tensor([[3., 0.], [0., -4.]])).S.tolist()
        [4.0, 3.0]
    """
    if isinstance(A, Tensor) and A.dtype.is_complex:
        from . import _complex_linalg
        from ._return_types import linalg_svd
        return linalg_svd(_complex_linalg.svd(A, full_matrices))
    from ._return_types import linalg_svd
    core.float_input("linalg.svd", A)
    if driver is not None:
        raise RuntimeError("torch.linalg.svd: keyword argument `driver=` is only supported on CUDA inputs with "
                           "cuSOLVER backend.")
    U, S, Vh = _svd(A)
    m, n = A._shape[-2:]
    if full_matrices and m != n:
        from .shape import cat
        if m > n:
            U = cat([U, core.qr(U.detach(), True)[0][..., n:]], -1)
        else:
            Vh = cat([Vh, core.qr(Vh.detach().mT, True)[0][..., m:].mT], -2)
        if A.requires_grad:
            U, Vh = U.detach(), Vh.detach()
            autograd.record("LinalgSvdBackward0", [A], [U, Vh], lambda gU, gVh: _full_error(), [])
    if out is not None:
        return linalg_svd((_out(U, out[0]), _out(S, out[1]), _out(Vh, out[2])))
    return linalg_svd((U, S, Vh))


def _full_error():
    raise RuntimeError("linalg.svd: The derivative of U or Vh is not defined when full_matrices=True and the "
                       "matrix is not square. Use full_matrices=False.")


def svdvals(A: Tensor, *, driver=None, out=None) -> Tensor:
    """The singular values of ``(*, m, n)``, descending (:func:`svd`'s S; the same precision).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.linalg.svdvals(torch.tensor([[0., 2.], [1., 0.]])).tolist()
        [2.0, 1.0]
    """
    if isinstance(A, Tensor) and A.dtype.is_complex:
        from . import _complex_linalg
        return _complex_linalg.svd(A, compute_uv=False)
    core.float_input("linalg.svd", A)
    return _out(_svd(A)[1], out)


def _cutoff(op: str, S: Tensor, m: int, n: int, atol, rtol, rcond_style: bool = False) -> Tensor:
    """PyTorch's tolerance: max(atol, rtol * S_max), rtol defaulting to eps * max(m, n) when atol is None or 0."""
    eps = _dtype.finfo(S.dtype).eps
    if rtol is None:
        rtol = eps * max(m, n) if (atol is None or (not isinstance(atol, Tensor) and atol == 0)) else 0.0
    smax = S.amax(-1, keepdim=True) if S._shape[-1] else S.sum(-1, keepdim=True)
    tol = smax * rtol
    if atol is not None:
        from .elementwise import maximum
        from .creation import full_like
        tol = maximum(tol, atol if isinstance(atol, Tensor) else full_like(tol, float(atol)))
    return tol


def pinv(A: Tensor, *, atol=None, rtol=None, hermitian: bool = False, out=None) -> Tensor:
    """The Moore-Penrose pseudo-inverse of ``(*, m, n)``: ``V diag(1/s) U^T`` over the singular values s
    above ``max(atol, rtol * s_max)`` (rtol defaults to ``eps * max(m, n)`` when atol is not given, as
    PyTorch's). Built on :func:`svd` (``hermitian=True`` on :func:`eigh`), so it is differentiable where
    the singular values are distinct. Precision as svd's.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.linalg.pinv(torch.tensor([[2., 0.], [0., 0.]])).tolist()
        [[0.5, 0.0], [0.0, 0.0]]
    """
    if isinstance(A, Tensor) and (A.dim() < 2 or not A.dtype.is_floating_point):
        what = {"float32": "Float", "int64": "Long", "int32": "Int", "bool": "Bool"}.get(A.dtype.name, A.dtype.name)
        raise RuntimeError(f"linalg.pinv({what}{{{list(A._shape)}}}): expected a tensor with 2 or more dimensions "
                           "of float, double, cfloat or cdouble types")
    core.float_input("linalg.pinv", A)
    m, n = A._shape[-2:]
    if hermitian:
        w, V = eigh(A)
        keep = w.abs() > _cutoff("linalg.pinv", w.abs(), m, n, atol, rtol)
        winv = (1.0 / w.masked_fill(~keep, 1.0)).masked_fill(~keep, 0.0)
        return _out((V * winv.unsqueeze(-2)) @ V.mT, out)
    U, S, Vh = _svd(A)
    keep = S > _cutoff("linalg.pinv", S, m, n, atol, rtol)
    Sinv = (1.0 / S.masked_fill(~keep, 1.0)).masked_fill(~keep, 0.0)
    return _out((Vh.mT * Sinv.unsqueeze(-2)) @ U.mT, out)


def matrix_rank(A: Tensor, *, atol=None, rtol=None, hermitian: bool = False, out=None) -> Tensor:
    """The number of singular values (``hermitian=True``: |eigenvalues|) above ``max(atol, rtol * s_max)``
    (int64, one per matrix); rtol defaults to ``eps * max(m, n)`` when atol is not given.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.linalg.matrix_rank(torch.tensor([[1., 2.], [2., 4.]])).item()
        1
    """
    core.float_input("torch.linalg.matrix_rank", A, "input")
    m, n = A._shape[-2:]
    if not hermitian:
        _finite(A, _SVD_NONFINITE)
    with autograd.no_grad():
        S = eigh(A)[0].abs() if hermitian else core.svd(A.detach())[1]
        r = (S > _cutoff("linalg.matrix_rank", S, m, n, atol, rtol)).sum(-1)
    return _out(r, out)


_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


def lstsq(A: Tensor, B: Tensor, rcond=None, *, driver=None):
    """The least-squares solution of ``A X = B`` for ``(*, m, n)`` A and ``(*, m, k)`` B:
    ``(solution, residuals, rank, singular_values)``, computed as ``pinv(A) @ B`` with the cutoff
    ``rcond`` (default ``eps * max(m, n)``), so it is differentiable. ``driver`` is accepted and decides,
    as PyTorch's CPU drivers do, which of the other fields are filled: residuals (the squared residual
    norms, for m > n with full rank) for 'gels', 'gelsd', 'gelss'; rank for 'gelsy' (the default),
    'gelsd', 'gelss'; singular values for 'gelsd', 'gelss'. Precision as svd's.

    Example::

        >>> import borch_webgpu as torch
        >>> A = torch.tensor([[1., 0.], [0., 1.], [0., 0.]])
        >>> torch.linalg.lstsq(A, torch.tensor([[1.], [2.], [3.]])).solution.tolist()
        [[1.0], [2.0]]
    """
    from ._return_types import linalg_lstsq
    from .creation import empty
    core.float_input("torch.linalg.lstsq", A, "input")
    core.float_input("torch.linalg.lstsq", B, "other", 1)
    if driver is None:
        driver = "gelsy"
    if driver not in _DRIVERS:
        raise RuntimeError("torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)")
    vector = B.dim() == A.dim() - 1
    Bm = B.unsqueeze(-1) if vector else B
    if Bm._shape[-2] != A._shape[-2]:
        raise RuntimeError("torch.linalg.lstsq: input.size(-2) should match other.size(-2)")
    m, n = A._shape[-2:]
    X = pinv(A, rtol=rcond) @ Bm
    with autograd.no_grad():
        S = core.svd(A.detach())[1]
        rank = (S > _cutoff("torch.linalg.lstsq", S, m, n, None, rcond)).sum(-1)
    # residuals: differentiable as PyTorch's (an empty one too: a view of the solution)
    res = ((A @ X - Bm) ** 2).sum(-2) if driver != "gelsy" and m > n else X.reshape(-1)[:0]
    rank_out = rank if driver != "gels" else empty(0, dtype=_dtype.int64, device=A.device)
    sv = S if driver in ("gelsd", "gelss") else empty(0, device=A.device)
    return linalg_lstsq((X.squeeze(-1) if vector else X, res, rank_out, sv))
