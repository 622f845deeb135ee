"""Linear algebra with complex values, in numpy on both devices (complex tensors are held on the host):
matmul of complex operands, ``linalg.eig`` / ``linalg.eigvals`` (complex results for real or complex
input), and complex input to ``linalg.inv``, ``det``, ``svd``, ``svdvals``, ``eigh``, ``eigvalsh``."""
from __future__ import annotations

import numpy as np


from ..tensor import Tensor
from . import _complex_core as cc

__all__ = ["matmul", "eig", "eigvals", "inv", "det", "svd", "eigh"]

# No OpDefs: numpy on the host (no kernel); tests/golden/complex_cases.py holds the goldens.

_CPP = {"complex64": "c10::complex<float>", "complex128": "c10::complex<double>", "float32": "float",
        "float64": "double", "int64": "long int", "int32": "int", "bool": "bool", "float16": "c10::Half"}


def matmul(a: Tensor, b: Tensor) -> Tensor:
    """a @ b where one operand is complex (ops/linalg.py's matmul hands it here): numpy's matmul."""
    if a.dim() == 0 or b.dim() == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {a.dim()}D and "
                           f"{b.dim()}D")
    if a.dtype is not b.dtype:
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {_CPP[a.dtype.name]} != "
                           f"{_CPP[b.dtype.name]}")
    x, y = cc.values(a), cc.values(b)
    try:
        r = np.matmul(x, y)
    except ValueError:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({'x'.join(map(str, x.shape))} and "
                           f"{'x'.join(map(str, y.shape))})") from None
    out = cc.make(r, a.dtype, a.device)

    def back(g):
        xm = x[None, :] if x.ndim == 1 else x
        ym = y[:, None] if y.ndim == 1 else y
        gm = g.reshape(np.broadcast_shapes(xm.shape[:-2], ym.shape[:-2]) + (xm.shape[-2], ym.shape[-1]))
        ga = gm @ np.conj(np.swapaxes(ym, -1, -2))
        gb = np.conj(np.swapaxes(xm, -1, -2)) @ gm
        ga = cc.sum_to_shape(ga, xm.shape).reshape(x.shape)
        gb = cc.sum_to_shape(gb, ym.shape).reshape(y.shape)
        return ga, gb
    cc.record("MmBackward0" if a.dim() == 2 and b.dim() == 2 else "MatmulBackward0", [a, b], [out], back)
    return out


def _square(op: str, A) -> np.ndarray:
    if not isinstance(A, Tensor):
        raise TypeError(f"{op}(): argument 'input' (position 1) must be Tensor, not {type(A).__name__}")
    if A.dim() < 2:
        raise RuntimeError(f"{op}: The input tensor A must have at least 2 dimensions.")
    if op in ("linalg.eig", "linalg.eigvals") and not (A.dtype.is_floating_point or A.dtype.is_complex):
        raise RuntimeError(f"Unknown Complex ScalarType for {cc.scalar_name(A.dtype)}")   # PyTorch's words
    if not (A.dtype.is_floating_point or A.dtype.is_complex):
        raise RuntimeError(f"{op}: Expected a floating point or complex tensor as input. Got "
                           f"{cc.scalar_name(A.dtype)}")
    if A.dtype.name == "float16":
        raise RuntimeError(f"{op}: Low precision dtypes not supported. Got Half")
    m, n = A._shape[-2:]
    if m != n:
        raise RuntimeError(f"{op}: A must be batches of square matrices, but they are {m} by {n} matrices")
    return cc.values(A)


def _no_grad(op: str, *ts) -> None:
    from .. import autograd
    if autograd.graph.needs_grad(*ts):
        raise NotImplementedError(f"{op}: the gradient through complex eigendecompositions is not implemented "
                                  "here; call it on a detached tensor (x.detach()) or under torch.no_grad()")


def eig(A: Tensor, *, out=None):
    """The eigenvalues and eigenvectors of square matrices (``torch.return_types.linalg_eig``), both complex
    (complex64 for float32 input, complex128 for float64), computed by numpy (LAPACK's geev) on the host on
    both devices; eigenvectors have unit norm. Not differentiable here.

    Example::

        >>> torch.linalg.eigvals(torch.tensor([[2., 0.], [0., 3.]]))
        tensor([2.+0.j, 3.+0.j])
    """
    a = _square("linalg.eig", A)
    _no_grad("linalg.eig", A)
    cd = A.dtype.to_complex()
    if not np.isfinite(a).all():
        raise RuntimeError("torch.linalg.eig: input tensor should not contain infs or NaNs.")
    w, V = np.linalg.eig(a.astype(cd.np))
    from ._return_types import linalg_eig
    res = linalg_eig((cc.make(w, cd, A.device), cc.make(V, cd, A.device)))
    if out is not None:
        from .memory import assign
        for o, r in zip(out, res):
            assign(o, r)
        return out
    return res


def eigvals(A: Tensor, *, out=None) -> Tensor:
    """The eigenvalues of square matrices, complex (see :func:`eig`).

    Example::

        >>> torch.linalg.eigvals(torch.tensor([[2., 1.], [0., 3.]]))
        tensor([2.+0.j, 3.+0.j])
    """
    a = _square("linalg.eigvals", A)
    _no_grad("linalg.eigvals", A)
    cd = A.dtype.to_complex()
    if not np.isfinite(a).all():
        raise RuntimeError("torch.linalg.eigvals: input tensor should not contain infs or NaNs.")
    r = cc.make(np.linalg.eigvals(a.astype(cd.np)), cd, A.device)
    if out is not None:
        from .memory import assign
        assign(out, r)
        return out
    return r


def inv(A: Tensor) -> Tensor:
    """linalg.inv of a complex matrix (numpy); gradient -A^-H g A^-H."""
    a = _square("linalg.inv", A)
    try:
        r = np.linalg.inv(a)
    except np.linalg.LinAlgError:
        from ._linalg_core import LinAlgError
        raise LinAlgError("linalg.inv: The diagonal element 1 is zero, the inversion could not be completed "
                          "because the input matrix is singular.") from None
    out = cc.make(r, A.dtype, A.device)
    rh = np.conj(np.swapaxes(r, -1, -2))
    cc.record("LinalgInvExBackward0", [A], [out], lambda g: (-(rh @ g @ rh),))
    return out


def det(A: Tensor) -> Tensor:
    """linalg.det of a complex matrix (numpy); gradient g * conj(det * A^-T)."""
    a = _square("linalg.det", A)
    d = np.linalg.det(a)
    out = cc.make(d, A.dtype, A.device)

    def back(g):
        cof = d[..., None, None] * np.swapaxes(np.linalg.inv(a), -1, -2)
        return (g[..., None, None] * np.conj(cof),)
    cc.record("LinalgDetBackward0", [A], [out], back)
    return out


def svd(A: Tensor, full_matrices: bool = True, compute_uv: bool = True):
    """(U, S, Vh) of a complex matrix (numpy); S real. Not differentiable here."""
    _no_grad("linalg.svd", A)
    a = cc.values(A)
    rd = A.dtype.to_real()
    if not compute_uv:
        return cc.make(np.linalg.svd(a, compute_uv=False), rd, A.device)
    U, S, Vh = np.linalg.svd(a, full_matrices=full_matrices)
    return cc.make(U, A.dtype, A.device), cc.make(S, rd, A.device), cc.make(Vh, A.dtype, A.device)


def eigh(A: Tensor, UPLO: str = "L", eigenvectors: bool = True):
    """(w real ascending, V) of a Hermitian complex matrix (numpy, the UPLO triangle). Not differentiable here."""
    a = _square("linalg.eigh", A)
    _no_grad("linalg.eigh", A)
    if eigenvectors:
        w, V = np.linalg.eigh(a, UPLO=UPLO)
        return cc.make(w, A.dtype.to_real(), A.device), cc.make(V, A.dtype, A.device)
    return cc.make(np.linalg.eigvalsh(a, UPLO=UPLO), A.dtype.to_real(), A.device)



