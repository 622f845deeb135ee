"""``torch.linalg``: norms, the cross product, and the decompositions with what is built on them.

Where each runs on ``webgpu`` (all in float32; one 64-thread workgroup per matrix of the batch):

- wgsl/linalg.wgsl's kernels: LU with partial pivoting (inv, inv_ex, det, slogdet, solve, solve_ex,
  lu_factor, lu_factor_ex, lu; solve_triangular, tensorinv, tensorsolve, cholesky_solve on solve),
  Cholesky (cholesky, cholesky_ex), Householder QR (qr, torch.geqrf), cyclic Jacobi (eigh,
  eigvalsh), one-sided Jacobi (svd, svdvals; pinv, matrix_rank, lstsq, cond and the 2 / -2 / 'nuc'
  matrix norms on svd);
- other ops' kernels (matmul and elementwise): matrix_power, matrix_exp, householder_product,
  multi_dot, vecdot, vander, lu_solve's triangular solves.

What reads a value back to the host (waits for the GPU), as PyTorch does on CUDA: the singular or
indefinite checks of inv, solve, cholesky and lu_factor (a small ``info`` tensor; the ``_ex`` forms
do not check), the permutation of lu, lu_unpack and lu_solve (the pivots), and matrix_exp's number
of squarings (its largest 1-norm). Nothing float32 is computed on the host. On ``cpu`` everything runs in
numpy in float64 and is rounded to float32. float64 input gives float64 results computed in float64 on
both devices (on ``webgpu`` a float64 tensor is held on the host, see ``torch.dtype``, so its
decompositions run in numpy there too). Each function's entry gives its float32 precision on
WebGPU. Failures on singular or indefinite input raise :class:`LinAlgError` (a RuntimeError) or
RuntimeError with PyTorch's messages. ``eig`` and ``eigvals`` (complex results) and complex input to
inv, det, svd, svdvals, eigh and eigvalsh run in numpy on the host on both devices (complex tensors are
held there; ops/_complex_linalg.py). Not implemented: ldl_factor, ldl_factor_ex and ldl_solve.
"""
from __future__ import annotations

import math

from . import _dtype
from .ops.combine import linalg_cross as cross
from .ops.reduce import amax, amin, norm as _norm, sum as _sum
from .ops._linalg_core import LinAlgError
from .ops._linalg_householder import householder_product
from .ops._linalg_lu import lu, lu_factor, lu_factor_ex, lu_solve
from .ops._linalg_more import (cond, diagonal, matmul, matrix_exp, multi_dot, solve_ex, solve_triangular,
                               spectral_norm, tensorinv, tensorsolve, vander, vecdot)
from .ops._linalg_solve import cholesky, cholesky_ex, det, inv, inv_ex, matrix_power, slogdet, solve
from .ops._complex_linalg import eig, eigvals
from .ops._linalg_spectral import eigh, eigvalsh, lstsq, matrix_rank, pinv, qr, svd, svdvals
from .tensor import Tensor, _wrap_dim

__all__ = ["vector_norm", "matrix_norm", "norm", "cross", "LinAlgError", "inv", "inv_ex", "det", "slogdet", "solve",
           "cholesky", "cholesky_ex", "qr", "eig", "eigvals", "eigh", "eigvalsh", "svd", "svdvals", "pinv", "matrix_rank", "lstsq",
           "matrix_power", "matmul", "diagonal", "vecdot", "multi_dot", "solve_ex", "solve_triangular", "cond",
           "tensorinv", "tensorsolve", "vander", "matrix_exp", "lu", "lu_factor", "lu_factor_ex", "lu_solve",
           "householder_product"]


def vector_norm(x: Tensor, ord=2, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """The vector ``ord``-norm over ``dim`` (all elements when None): 2, 1, inf, -inf, 0 or any number."""
    if dtype is not None:
        x = x.to(dtype)
    if x.dtype.is_complex:
        x = x.abs()   # the norms of complex values are those of their magnitudes
    if not x.dtype.is_floating_point:
        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
                           f"{_dtype.SCALAR_NAMES[x.dtype.name]}")
    return _norm(x, float(ord), dim, keepdim)


def matrix_norm(A: Tensor, ord="fro", dim=(-2, -1), keepdim: bool = False, *, dtype=None) -> Tensor:
    """Matrix norms over two dims: 'fro', 'nuc' (the sum of the singular values), 2 (the largest), -2 (the
    smallest), 1 (max column sum), -1, inf (max row sum), -inf.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.linalg.matrix_norm(torch.tensor([[3., 0.], [0., -4.]]), 2).item()
        4.0
    """
    if dtype is not None:
        A = A.to(dtype)
    if A.dim() < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    r, c = (_wrap_dim(d, A.dim(), "matrix_norm") for d in dim)
    if ord == "fro":
        return _norm(A, 2.0, [r, c], keepdim)
    if ord in (1, -1, math.inf, -math.inf):
        summed_dim, reduce_dim = (r, c) if ord in (1, -1) else (c, r)
        s = _sum(A.abs(), summed_dim, keepdim=True)
        out = (amax if ord > 0 else amin)(s, reduce_dim, keepdim=True)
        if not keepdim:
            out = out.squeeze([r, c])
        return out
    if ord in (2, -2, "nuc"):
        return spectral_norm(A, ord, (r, c), keepdim)
    raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")


def norm(A: Tensor, ord=None, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """``vector_norm`` for 1 dim (or all elements when ``ord`` is None), ``matrix_norm`` for 2 dims."""
    if dim is not None:
        dims = (dim,) if isinstance(dim, int) else tuple(dim)
        if len(dims) == 2:
            return matrix_norm(A, "fro" if ord is None else ord, dims, keepdim, dtype=dtype)
        return vector_norm(A, 2 if ord is None else ord, dims, keepdim, dtype=dtype)
    if ord is None:
        return vector_norm(A, 2, None, keepdim, dtype=dtype)
    if A.dim() == 2:
        return matrix_norm(A, ord, (-2, -1), keepdim, dtype=dtype)
    if A.dim() == 1:
        return vector_norm(A, ord, None, keepdim, dtype=dtype)
    raise RuntimeError("linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D")
