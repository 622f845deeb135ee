"""The kernels under torch.linalg's decompositions, without autograd: each takes detached float32
(or float64) tensors of shape (*batch, m, n) and returns new tensors of that dtype on the same device.
float64 always takes the numpy path (on ``webgpu`` a float64 tensor is held on the host).

On ``cpu`` they run in numpy in float64 and round the results to float32 (closer to the exact value
than PyTorch's float32 LAPACK, which the goldens accept: see tests/golden/generate.py's ``dev``). On
``webgpu`` they run wgsl/linalg.wgsl (device/gpu_linalg.py): one workgroup per matrix of the batch.

- :func:`lu_solve`: Gaussian elimination with partial pivoting; X = A^-1 B (B may be None), the
  determinant, its sign and log|det|, and LAPACK's ``info`` (the 1-based column of the first zero pivot).
- :func:`cholesky`: lower L with A = L L^T, ``info`` the order of the first minor that is not positive.
- :func:`qr`: Householder QR with LAPACK's signs (R[k, k] = -sign(a) * norm of the column).
- :func:`eigh`: cyclic Jacobi; eigenvalues ascending, eigenvectors in the columns.
- :func:`svd`: one-sided (Hestenes) Jacobi, reduced; singular values descending.
"""
from __future__ import annotations

import math

import numpy as np

from .. import _dtype
from ..tensor import Tensor

__all__ = ["LinAlgError", "lu_solve", "lu_factor", "cholesky", "qr", "geqrf", "eigh", "svd", "square", "float_input",
           "batch_note", "check_info"]


class _LinAlgError(RuntimeError):
    """``torch.linalg.LinAlgError``: a decomposition failed because of the values (a singular matrix,
    one that is not positive-definite). A RuntimeError, as PyTorch's; its class is named as PyTorch's
    (``torch._C._LinAlgError``)."""


LinAlgError = _LinAlgError
LinAlgError.__module__ = "borch_webgpu.linalg"


# ---- checks -----------------------------------------------------------------------------------------
def float_input(op: str, A, name: str = "A", dims: int = 2) -> Tensor:
    if not isinstance(A, Tensor):
        raise TypeError(f"{op}(): argument '{name}' (position 1) must be Tensor, not {type(A).__name__}")
    if A.dim() < dims:
        raise RuntimeError(f"{op}: The input tensor {name} must have at least {dims} dimensions.")
    if not A.dtype.is_floating_point:
        dt = _dtype.SCALAR_NAMES[A.dtype.name]
        raise RuntimeError(f"{op}: Expected a floating point or complex tensor as input. Got {dt}")
    if A.dtype.name not in ("float32", "float64"):
        raise NotImplementedError(f"{op}: only float32 and float64 are implemented (got {A.dtype.name}); "
                                  "convert with .float()")
    return A


def square(op: str, A, name: str = "A") -> Tensor:
    float_input(op, A, name)
    m, n = A._shape[-2:]
    if m != n:
        raise RuntimeError(f"{op}: {name} must be batches of square matrices, but they are {m} by {n} matrices")
    return A


def batch_note(info: np.ndarray, batched: bool) -> tuple[int, str]:
    """(the first failing batch element, "(Batch element i): " or "") for PyTorch's messages."""
    i = int(np.flatnonzero(info)[0])
    return i, (f"(Batch element {i}): " if batched else "")


def check_info(info: Tensor, batched: bool, message, exc: type = LinAlgError) -> None:
    """Raise LinAlgError(message(info value, batch prefix)) for the first batch element with info != 0.
    On WebGPU this reads ``info`` back (the GPU is waited for), as PyTorch's CUDA device syncs here."""
    from ._checks import host_values
    vals = np.asarray(host_values(info, "checking a decomposition's info"))
    if vals.size and vals.any():
        i, note = batch_note(vals, batched)
        raise exc(message(int(vals[i]), note))


def _flat(A: Tensor) -> tuple[Tensor, tuple[int, ...]]:
    """A as a contiguous (batch, m, n) tensor, and its batch shape."""
    batch = A._shape[:-2]
    return A.contiguous().reshape((math.prod(batch),) + A._shape[-2:]), batch


def _np(A: Tensor) -> np.ndarray:
    from ..device.cpu import BACKEND
    return np.asarray(BACKEND.view(A.contiguous()), dtype=np.float64)


def _t(a, device, dtype=None) -> Tensor:
    from .creation import tensor
    a = np.ascontiguousarray(a, dtype=np.float32 if dtype is None else dtype)
    return tensor(a, device=device)


def _gpu(kernel: str, a: Tensor, *args, shapes):
    """device/gpu_linalg's kernel on the (N, m, n) a, its storages as float32 tensors of ``shapes``
    (an int32 one where the shape is given as ("int32", shape)); zeros for an empty batch."""
    from ..device import gpu_linalg
    from .creation import zeros
    out = []
    storages = getattr(gpu_linalg, kernel)(a, *args) if a._shape[0] else [None] * len(shapes)
    for st, shape in zip(storages, shapes):
        dt = _dtype.float32
        if shape and shape[0] == "int32":
            dt, shape = _dtype.int32, shape[1]
        if shape is None:
            out.append(None)
        elif st is None:
            out.append(zeros(shape, dtype=dt, device=a.device))
        else:
            out.append(Tensor._make(st, shape, dt, a.device))
    return out


# ---- LU -------------------------------------------------------------------------------------------
def _np_lu(a: np.ndarray, b: np.ndarray | None):
    """Batched LU with partial pivoting in float64 (a: (N, m, n), b: (N, n, k) or None, m == n with b):
    (LU as getrf leaves it, X, info, det, sign, log|det|, 1-based pivots)."""
    a = a.copy()
    N, m, n = a.shape
    r = min(m, n)
    b = None if b is None else b.copy()
    info = np.zeros(N, np.int64)
    piv = np.zeros((N, r), np.int64)
    sign = np.ones(N)
    rows = np.arange(N)
    for k in range(r):
        p = k + np.argmax(np.abs(a[:, k:, k]), axis=1)
        piv[:, k] = p + 1
        swap = p != k
        sign[swap] = -sign[swap]
        for M in (a, b) if b is not None else (a,):
            row = M[rows, p].copy()
            M[rows, p] = M[:, k]
            M[:, k] = row
        pv = a[:, k, k]
        zero = pv == 0
        info[zero & (info == 0)] = k + 1
        safe = np.where(zero, 1.0, pv)
        l_col = np.where(zero[:, None], 0.0, a[:, k + 1:, k] / safe[:, None])
        a[:, k + 1:, k] = l_col
        a[:, k + 1:, k + 1:] -= l_col[:, :, None] * a[:, k, None, k + 1:]
        if b is not None:
            b[:, k + 1:] -= l_col[:, :, None] * b[:, k, None, :]
    d = np.diagonal(a, axis1=1, axis2=2)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        det = sign * np.prod(d, axis=1)
        sgn = np.where(info > 0, 0.0, sign * np.prod(np.sign(d), axis=1))
        logabs = np.sum(np.log(np.abs(d)), axis=1)
        if b is not None:
            for k in range(n - 1, -1, -1):
                b[:, k] /= d[:, k, None]
                b[:, :k] -= a[:, :k, k, None] * b[:, k, None, :]
    return a, b, info, det, sgn, logabs, piv


def _lu(A: Tensor, B: Tensor | None):
    """(LU, X or None, info int32, det, sign, log|det|, pivots int32), batch dims restored."""
    a, batch = _flat(A)
    b = None if B is None else _flat(B)[0]
    m, n = A._shape[-2:]
    r = min(m, n)
    dev = A.device
    if A._device.type == "webgpu":
        N = a._shape[0]
        LU, x, aux = _gpu("lu_solve", a, b, shapes=[a._shape, None if b is None else b._shape, (N, 4 + r)])
        LU = LU.reshape(A._shape)
        info, piv = aux[:, 3].to(_dtype.int32), aux[:, 4:].to(_dtype.int32)
        vals = [aux[:, i].reshape(batch) for i in range(3)]
        X = None if x is None else x.reshape(B._shape)
        return LU, X, info.reshape(batch), vals[0], vals[1], vals[2], piv.reshape(batch + (r,))
    lu, x, info, det, sgn, logabs, piv = _np_lu(_np(a), None if b is None else _np(b))
    X = None if x is None else _t(x, dev, A.dtype.np).reshape(B._shape)
    return (_t(lu, dev, A.dtype.np).reshape(A._shape), X, _t(info, dev, np.int32).reshape(batch), _t(det, dev, A.dtype.np).reshape(batch),
            _t(sgn, dev, A.dtype.np).reshape(batch), _t(logabs, dev, A.dtype.np).reshape(batch), _t(piv, dev, np.int32).reshape(batch + (r,)))


def lu_solve(A: Tensor, B: Tensor | None = None):
    """(X (like B) or None, info int32, det, sign, log|det|) per matrix; A (*batch, n, n), B (*batch, n, k)
    with the same batch shape."""
    _, X, info, det, sgn, logabs, _ = _lu(A, B)
    return X, info, det, sgn, logabs


def lu_factor(A: Tensor):
    """(LU as LAPACK's getrf leaves it, pivots int32 (1-based), info int32) of the (*batch, m, n) A."""
    LU, _, info, _, _, _, piv = _lu(A, None)
    return LU, piv, info


# ---- Cholesky ------------------------------------------------------------------------------------------
def _np_cholesky(a: np.ndarray):
    N, n, _ = a.shape
    L = np.zeros_like(a)
    info = np.zeros(N, np.int64)
    for j in range(n):
        d = a[:, j, j] - np.sum(L[:, j, :j] ** 2, axis=1)
        bad = ~(d > 0)
        info[bad & (info == 0)] = j + 1
        r = np.sqrt(np.where(bad, 1.0, d))
        L[:, j, j] = np.where(bad, np.nan, r)
        L[:, j + 1:, j] = (a[:, j + 1:, j] - np.einsum("bik,bk->bi", L[:, j + 1:, :j], L[:, j, :j])) / r[:, None]
    return L, info


def cholesky(A: Tensor):
    """(L lower with A = L L^T, info int32); only A's lower triangle is read."""
    a, batch = _flat(A)
    dev = A.device
    if A._device.type == "webgpu":
        L, info = _gpu("cholesky", a, shapes=[a._shape, ("int32", a._shape[:1])])
        return L.reshape(A._shape), info.reshape(batch)
    L, info = _np_cholesky(_np(a))
    return _t(L, dev, A.dtype.np).reshape(A._shape), _t(info, dev, np.int32).reshape(batch)


# ---- QR, eigh, SVD -----------------------------------------------------------------------------------
def qr(A: Tensor, complete: bool):
    """(Q, R): Q (*batch, m, m if complete else k), R (*batch, m if complete else k, n), k = min(m, n)."""
    a, batch = _flat(A)
    m, n = A._shape[-2:]
    k = m if complete else min(m, n)
    dev = A.device
    if A._device.type == "webgpu":
        N = a._shape[0]
        Q, R, _ = _gpu("qr", a, k, shapes=[(N, m, k), (N, m, n), None])
        R = R[:, :k]
    else:
        Q, R = np.linalg.qr(_np(a), mode="complete" if complete else "reduced")
        Q, R = _t(Q, dev, A.dtype.np), _t(R, dev, A.dtype.np)
    return Q.reshape(batch + (m, k)), R.reshape(batch + (k, n))


def geqrf(A: Tensor):
    """(a, tau) as LAPACK's geqrf leaves them: R on and above the diagonal, the reflectors' vectors below
    (their leading 1 implied), tau (*batch, min(m, n))."""
    a, batch = _flat(A)
    m, n = A._shape[-2:]
    r = min(m, n)
    dev = A.device
    if A._device.type == "webgpu":
        N = a._shape[0]
        _, R, H = _gpu("qr", a, 0, shapes=[None, (N, m, n), (N, m + 1, r)])
        from .shape import cat
        from .creation import zeros
        low = H[:, :m, :].tril(-1)
        if n > r:
            low = cat([low, zeros(N, m, n - r, device=dev)], -1)
        return (R.triu() + low).reshape(A._shape), H[:, m, :].reshape(batch + (r,))
    h, tau = [], []
    for mat in _np(a):
        hh, tt = np.linalg.qr(mat, mode="raw")
        h.append(hh.T)
        tau.append(tt)
    h = np.stack(h) if h else np.zeros((0, m, n))
    tau = np.stack(tau) if tau else np.zeros((0, r))
    return _t(h, dev, A.dtype.np).reshape(A._shape), _t(tau, dev, A.dtype.np).reshape(batch + (r,))


def eigh(A: Tensor):
    """(w ascending, V) of the symmetric A (both triangles read: symmetrize first)."""
    a, batch = _flat(A)
    n = A._shape[-1]
    dev = A.device
    if A._device.type == "webgpu":
        w, V = _gpu("eigh", a, shapes=[a._shape[:2], a._shape])
    else:
        w, V = np.linalg.eigh(_np(a))
        w, V = _t(w, dev, A.dtype.np), _t(V, dev, A.dtype.np)
    return w.reshape(batch + (n,)), V.reshape(A._shape)


def _complete(U: Tensor, S: Tensor, size: int) -> Tensor:
    """The kernel's U (N, m, k) with the columns of numerically zero singular values (at most
    eps * max(m, n) * S_max: A v / S is then rounding noise, or 0 / 0) replaced by an orthonormal
    completion: a Householder QR of U keeps the other columns (up to sign; they come first, S is
    descending) and continues them with orthonormal columns, as LAPACK's vectors are."""
    from .elementwise import where
    N, m, k = U._shape
    Q, _, _ = _gpu("qr", U.contiguous(), k, shapes=[(N, m, k), (N, m, k), None])
    keep = S > S.amax(-1, keepdim=True) * (size * _dtype.finfo(S.dtype).eps) if k else S > 0
    return where(keep.unsqueeze(-2), U, Q)


def svd(A: Tensor):
    """(U (*batch, m, k), S descending (*batch, k), Vh (*batch, k, n)), k = min(m, n)."""
    a, batch = _flat(A)
    m, n = A._shape[-2:]
    k = min(m, n)
    dev = A.device
    if A._device.type == "webgpu":
        N = a._shape[0]
        if m < n:  # the kernel wants m >= n: svd(A^T) = V S U^T
            Vt, S, Ut = _gpu("svd", a.mT.contiguous(), shapes=[(N, n, m), (N, m), (N, m, m)])
            U, Vh = Ut.mT, _complete(Vt, S, n).mT
        else:
            U, S, Vh = _gpu("svd", a, shapes=[(N, m, n), (N, n), (N, n, n)])
            U = _complete(U, S, m)
    else:
        U, S, Vh = np.linalg.svd(_np(a), full_matrices=False)
        U, S, Vh = _t(U, dev, A.dtype.np), _t(S, dev, A.dtype.np), _t(Vh, dev, A.dtype.np)
    return U.reshape(batch + (m, k)), S.reshape(batch + (k,)), Vh.reshape(batch + (k, n))
