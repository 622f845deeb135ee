"""torch.linalg's functions that are compositions of the decompositions and of other ops: matmul,
diagonal, vecdot, multi_dot, solve_ex, solve_triangular, cond, tensorinv, tensorsolve, vander,
matrix_exp, and the spectral matrix norms (ord 2, -2, 'nuc'). Their gradients come from the ops they
are made of (each of which has PyTorch's backward)."""
from __future__ import annotations

import math

from ..tensor import Tensor
from . import _linalg_core as core
from ._linalg_solve import _out, inv, solve
from ._linalg_spectral import svdvals
from ._registry import OpDef, register

__all__ = ["matmul", "diagonal", "vecdot", "multi_dot", "solve_ex", "solve_triangular", "cond", "tensorinv",
           "tensorsolve", "vander", "matrix_exp", "spectral_norm"]


def _reg(name: str, doc: str, block: str | None, tol=(1e-4, 1e-5)) -> OpDef:
    return register(OpDef(name, "linalg", ("linalg.wgsl", block) if block else None, None, tol=tol, doc=doc,
                          extra={"messages": True, "grad_tol": (2e-4, 2e-4)}))


# matmul adds K products in an order that differs from PyTorch's: the matmul family's tolerance
_reg("linalg.matmul", "torch.matmul under torch.linalg", None, (1e-5, 1e-4))
_reg("linalg.diagonal", "Tensor.diagonal over the last two dims", None, (0.0, 0.0))
_reg("linalg.vecdot", "(x * y).sum(dim)", None, (1e-5, 1e-5))
_reg("linalg.multi_dot", "a chain of matmuls", None, (1e-5, 1e-4))
_reg("linalg.solve_ex", "linalg.solve without the error: (result, info)", "lu")
_reg("linalg.solve_triangular", "linalg.solve on the triangle", "lu")
_reg("linalg.cond", "S[0] / S[-1] (p = None, 2, -2), else norm(A) * norm(inv(A))", "svd")
_reg("linalg.tensorinv", "linalg.inv of the tensor as a matrix", "lu")
_reg("linalg.tensorsolve", "linalg.solve of the tensors as a matrix and a vector", "lu")
_reg("linalg.vander", "the powers of x by a cumulative product", None, (1e-6, 1e-6))
_reg("linalg.matrix_exp", "scaling and squaring of a Pade (6, 6) approximant", "lu")


def matmul(input: Tensor, other: Tensor, *, out=None) -> Tensor:
    """:func:`torch.matmul` under its torch.linalg name.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.linalg.matmul(torch.ones(2, 3), torch.ones(3)).tolist()
        [3.0, 3.0]
    """
    from .linalg import matmul as mm
    return mm(input, other, out=out)


def diagonal(A: Tensor, *, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    """The diagonals of the matrices in ``A`` (a view), over ``dim1`` and ``dim2`` (the last two by default).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.linalg.diagonal(torch.arange(9.).reshape(3, 3), offset=1).tolist()
        [1.0, 5.0]
    """
    return A.diagonal(offset, dim1, dim2)


def vecdot(x: Tensor, y: Tensor, *, dim: int = -1, out=None) -> Tensor:
    """The dot product of the vectors along ``dim`` (other dims broadcast): ``(x * y).sum(dim)``.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.linalg.vecdot(torch.tensor([[1., 2.], [3., 4.]]), torch.tensor([1., 1.])).tolist()
        [3.0, 7.0]
    """
    if x.dim() == 1 and y.dim() == 1:
        from .linalg import dot
        return dot(x, y, out=out)
    return _out((x * y).sum(dim), out)


def multi_dot(tensors, *, out=None) -> Tensor:
    """The product of two or more matrices; the first may be a row vector (1-D) and the last a column
    vector (1-D), whose dims are then removed. Multiplied left to right (PyTorch picks the cheapest
    order; the results differ by rounding only).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.linalg.multi_dot([torch.ones(3), torch.ones(3, 2), torch.ones(2)]).item()
        6.0
    """
    ts = list(tensors)
    if len(ts) < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {len(ts)}")
    for i, t in enumerate(ts):
        ok = t.dim() in (1, 2) if i in (0, len(ts) - 1) else t.dim() == 2
        if not ok:
            where = "first" if i == 0 else "last" if i == len(ts) - 1 else None
            if where:
                raise RuntimeError(f"multi_dot(): the {where} tensor must be 1D or 2D but got {t.dim()}D")
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {t.dim()}D")
    first_1d, last_1d = ts[0].dim() == 1, ts[-1].dim() == 1
    ts[0] = ts[0].unsqueeze(0) if first_1d else ts[0]
    ts[-1] = ts[-1].unsqueeze(-1) if last_1d else ts[-1]
    for i in range(len(ts) - 1):
        if ts[i]._shape[1] != ts[i + 1]._shape[0]:
            a, b = ts[i]._shape, ts[i + 1]._shape
            raise RuntimeError(f"multi_dot(): tensors {i} and {i + 1} with shapes {list(a)} and {list(b)} cannot be "
                               "multiplied")
    r = ts[0]
    for t in ts[1:]:
        r = r @ t
    if first_1d:
        r = r.squeeze(0)
    if last_1d:
        r = r.squeeze(-1)
    return _out(r, out)


def solve_ex(A: Tensor, B: Tensor, *, left: bool = True, check_errors: bool = False, out=None):
    """``(result, info)``: :func:`torch.linalg.solve` that does not raise for a singular A unless
    ``check_errors=True``; ``info`` (int32, one per matrix) is the 1-based column of LU's first zero pivot.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.linalg.solve_ex(torch.eye(2), torch.ones(2)).info.item()
        0
    """
    from ._return_types import linalg_solve_ex
    from ._linalg_solve import _solve
    X, info = _solve(A, B, left, check_errors, "torch.linalg.solve_ex")
    return linalg_solve_ex((X, info))


def solve_triangular(A: Tensor, B: Tensor, *, upper: bool, left: bool = True, unitriangular: bool = False,
                     out=None) -> Tensor:
    """The solution X of ``A X = B`` (``left=False``: ``X A = B``) for a triangular A (only the triangle that
    ``upper`` names is read; ``unitriangular=True``: its diagonal is taken as ones). B must be a matrix
    ``(*, n, k)``. Runs :func:`torch.linalg.solve` (LU) on that triangle: the same precision.

    Example::

        >>> import borch_webgpu as torch
        >>> A = torch.tensor([[2., 1.], [0., 4.]])
        >>> torch.linalg.solve_triangular(A, torch.tensor([[3.], [4.]]), upper=True).tolist()
        [[1.0], [1.0]]
    """
    core.square("linalg.solve_triangular", A)
    core.float_input("linalg.solve_triangular", B, "B")
    n = A._shape[-1]
    rows, cols = B._shape[-2:]
    if (left and rows != n) or (not left and cols != n):
        eq = "AX = B" if left else "XA = B"
        raise RuntimeError(f"linalg.solve_triangular: Incompatible shapes of A and B for the equation {eq} "
                           f"({n}x{n} and {rows}x{cols})")
    T = A.triu() if upper else A.tril()
    if unitriangular:
        from .creation import eye
        I = eye(n, device=A.device, dtype=_bool())
        T = T.masked_fill(I, 1.0)
    return _out(solve(T, B, left=left), out)


def _bool():
    from .. import _dtype
    return _dtype.bool


def spectral_norm(A: Tensor, ord, dim, keepdim: bool) -> Tensor:
    """matrix_norm's ord 2 (largest singular value), -2 (smallest) and 'nuc' (their sum) over ``dim``."""
    from ..tensor import _wrap_dim
    r, c = (_wrap_dim(d, A.dim(), "matrix_norm") for d in dim)
    rest = [d for d in range(A.dim()) if d not in (r, c)]
    S = svdvals(A.permute(*rest, r, c))
    out = S.sum(-1) if ord == "nuc" else S.amax(-1) if ord == 2 else S.amin(-1)
    if keepdim:
        for d in sorted((r, c)):
            out = out.unsqueeze(d)
    return out


_COND = (None, 2, -2, 1, -1, math.inf, -math.inf, "fro", "nuc")


def cond(A: Tensor, p=None, *, out=None) -> Tensor:
    """The condition number of ``A`` in the norm ``p``: for None, 2 and -2 the ratio of the largest and
    smallest singular values (inf for a singular matrix, any shape); for 1, -1, inf, -inf, 'fro', 'nuc'
    ``matrix_norm(A, p) * matrix_norm(inv(A), p)`` (square, invertible A).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.linalg.cond(torch.tensor([[4., 0.], [0., 2.]])).item()
        2.0
    """
    if p not in _COND:
        raise RuntimeError(f"linalg.cond got an invalid norm type: {p}")
    if isinstance(A, Tensor) and A.dim() < 2:
        raise RuntimeError("linalg.cond: The input tensor must have at least 2 dimensions.")
    core.float_input("linalg.cond", A)
    if p in (None, 2, -2):
        S = svdvals(A)
        r = S.amax(-1) / S.amin(-1) if p != -2 else S.amin(-1) / S.amax(-1)
        return _out(r, out)
    core.square("linalg.cond", A)
    return _out(_matrix_norm(A, p) * _matrix_norm(inv(A), p), out)


def _matrix_norm(A: Tensor, p) -> Tensor:
    """torch.linalg.matrix_norm over the last two dims, for cond's orders."""
    if p == "fro":
        return (A * A).sum((-2, -1)).sqrt()
    if p == "nuc":
        return svdvals(A).sum(-1)
    s = A.abs().sum(-2 if p in (1, -1) else -1)
    return s.amax(-1) if p > 0 else s.amin(-1)


def tensorinv(A: Tensor, ind: int = 2, *, out=None) -> Tensor:
    """The inverse of ``A`` seen as a matrix of its first ``ind`` dims by the rest: shape
    ``A.shape[ind:] + A.shape[:ind]``, with ``tensordot(A, tensorinv(A, ind), ind)`` the identity.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.linalg.tensorinv(torch.eye(4).reshape(4, 2, 2), ind=1).shape
        torch.Size([2, 2, 4])
    """
    if not isinstance(ind, int) or ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    rows, cols = math.prod(A._shape[:ind]), math.prod(A._shape[ind:])
    if rows != cols:
        raise RuntimeError(f"Expected self to satisfy the requirement prod(self.shape[ind:]) == "
                           f"prod(self.shape[:ind]), but got {cols} != {rows}")
    return _out(inv(A.reshape(rows, cols)).reshape(A._shape[ind:] + A._shape[:ind]), out)


def tensorsolve(A: Tensor, B: Tensor, dims=None, *, out=None) -> Tensor:
    """The X with ``tensordot(A, X, X.ndim) == B``: A seen as a matrix of B's shape by the rest (after
    moving the dims ``dims`` of A to the end), solved by :func:`torch.linalg.solve`.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.linalg.tensorsolve(torch.eye(6).reshape(2, 3, 6), torch.ones(2, 3)).shape
        torch.Size([6])
    """
    if dims is not None:
        dims = [d % A.dim() for d in dims]
        A = A.permute(*[d for d in range(A.dim()) if d not in dims], *dims)
    rest = A._shape[B.dim():]
    n = math.prod(B._shape)
    if math.prod(rest) != n or A._shape[:B.dim()] != B._shape:
        raise RuntimeError(f"Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == "
                           f"prod(self.shape[:other.ndim]), but got {math.prod(rest)} != {n}")
    return _out(solve(A.reshape(n, n), B.reshape(n)).reshape(rest), out)


def vander(x: Tensor, *, N: int | None = None) -> Tensor:
    """The Vandermonde matrix of ``x`` (``(*, n)``): ``(*, n, N)`` with columns ``x ** 0 ... x ** (N - 1)``
    (N defaults to n), as a cumulative product.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.linalg.vander(torch.tensor([1, 2, 3]), N=3).tolist()
        [[1, 1, 1], [1, 2, 4], [1, 3, 9]]
    """
    n = (x._shape[-1] if x.dim() else 1) if N is None else N
    if n < 2:
        raise RuntimeError("N must be greater than 1.")
    from .shape import cat
    from .creation import ones_like
    col = x.unsqueeze(-1)
    ones = ones_like(col)
    return cat([ones, col.expand(x._shape + (n - 1,))], -1).cumprod(-1)


# Pade (6, 6) coefficients of exp
_PADE = [1.0, 0.5, 5 / 44, 1 / 66, 1 / 792, 1 / 15840, 1 / 665280]


def matrix_exp(A: Tensor) -> Tensor:
    """The matrix exponential of ``A`` (or of each in a batch) by scaling and squaring: ``A / 2^s`` with
    its 1-norm at most 0.5, a Pade (6, 6) approximant (one :func:`torch.linalg.solve`), then s squarings.
    s comes from the largest 1-norm, read back on WebGPU (one wait for the GPU). float32: within a few
    1e-7 relative for well-scaled A (the goldens' tolerance is 1e-4 relative).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.linalg.matrix_exp(torch.zeros(2, 2)).tolist()
        [[1.0, 0.0], [0.0, 1.0]]
    """
    from .creation import eye
    core.square("linalg.matrix_exp", A)
    norm = float(_matrix_norm(A.detach(), 1).amax().item()) if A.numel() else 0.0
    s = max(0, math.ceil(math.log2(norm / 0.5))) if norm > 0.5 else 0
    X = A / (2 ** s) if s else A
    I = eye(A._shape[-1], device=A.device).expand(A._shape)
    P, Qm, Xk = I * _PADE[0], I * _PADE[0], I
    for k in range(1, 7):
        Xk = Xk @ X
        P = P + Xk * _PADE[k]
        Qm = Qm + Xk * (_PADE[k] * (-1) ** k)
    R = solve(Qm, P)
    for _ in range(s):
        R = R @ R
    return R
