"""``torch.sparse``'s functions (exported by borch_webgpu/sparse.py): products, sums and softmaxes of sparse COO
tensors.

Dense-backed (see ``borch_webgpu/_sparse.py``): the sparse operand is scattered into a dense tensor on its
device and the dense kernels run; results that PyTorch returns sparse come back sparse, with PyTorch's
indices. Gradients flow to the dense operand and to the sparse operand's values.
"""
from __future__ import annotations

import functools

import numpy as np

from ._sparse import SparseCooTensor, _idx_tensor, make_sparse
from ..tensor import Tensor

__all__ = ["mm", "addmm", "sum", "softmax", "log_softmax", "check_sparse_tensor_invariants"]


def _mm_check(mat1: Tensor, mat2: Tensor) -> None:
    if mat2.dim() != 2:
        raise RuntimeError(f"mm: expected 2-D mat2, got {mat2.dim()}-D")  # torch: "addmm: matrices expected"
    if mat1._shape[1] != mat2._shape[0]:
        raise RuntimeError(f"addmm: Argument #3 (dense): Expected dim 0 size {mat1._shape[1]}, got {mat2._shape[0]}")


def mm(mat1: Tensor, mat2: Tensor, reduce: str = "sum") -> Tensor:
    """The matrix product of a sparse (or dense) ``mat1`` and a dense ``mat2`` (both sparse: a sparse
    result). Gradients reach ``mat2`` and ``mat1``'s values.

    Example::

        >>> import borch_webgpu as torch
        >>> s = torch.sparse_coo_tensor([[0, 1], [1, 0]], [2., 3.], (2, 2))
        >>> torch.sparse.mm(s, torch.ones(2, 2))
        tensor([[2., 2.],
                [3., 3.]])
    """
    if reduce != "sum":
        raise NotImplementedError(f"torch.sparse.mm: reduce={reduce!r} is not supported here (only 'sum')")
    return _product(mat1, mat2, True)


def _product(mat1: Tensor, mat2: Tensor, masked: bool) -> Tensor:
    """mat1 @ mat2 with sparse operands made dense; ``masked``: torch.sparse.mm, whose gradient for a sparse
    leaf is sparse (its own indices), else torch.mm's, which is dense."""
    def dense(s: SparseCooTensor) -> Tensor:
        return s.to_dense() if masked else s._dense_operand()
    if isinstance(mat1, SparseCooTensor):
        _mm_check(mat1, mat2)
        dense2 = dense(mat2) if isinstance(mat2, SparseCooTensor) else mat2
        out = dense(mat1).mm(dense2)
        return out.to_sparse() if isinstance(mat2, SparseCooTensor) else out
    if isinstance(mat2, SparseCooTensor):
        return mat1.mm(dense(mat2))
    return mat1.mm(mat2)


def addmm(mat: Tensor, mat1: Tensor, mat2: Tensor, *, beta=1.0, alpha=1.0) -> Tensor:
    """``beta * mat + alpha * (mat1 @ mat2)`` with a sparse ``mat1`` (``torch.addmm`` accepts it too).

    Example::

        >>> import borch_webgpu as torch
        >>> s = torch.sparse_coo_tensor([[0], [1]], [2.], (2, 2))
        >>> torch.sparse.addmm(torch.ones(2, 1), s, torch.ones(2, 1))
        tensor([[3.],
                [1.]])
    """
    return _addmm(mat, mat1, mat2, beta, alpha, True)


def _addmm(mat: Tensor, mat1: Tensor, mat2: Tensor, beta, alpha, masked: bool) -> Tensor:
    from .linalg import addmm as dense_addmm
    if isinstance(mat1, SparseCooTensor):
        _mm_check(mat1, mat2)
        mat1 = mat1.to_dense() if masked else mat1._dense_operand()
    return dense_addmm(mat, mat1, mat2, beta=beta, alpha=alpha)


def _matmul(s: SparseCooTensor, other: Tensor) -> Tensor:
    if other.dim() == 1:
        if s.dim() != 2 or s._shape[1] != other._shape[0]:
            raise RuntimeError(f"size mismatch, got input ({s._shape[0]}), mat ({s._shape[0]}x{s._shape[1]}), "
                               f"vec ({other._shape[0]})")
        return s._dense_operand().mv(other)
    if s.dim() == 2 and other.dim() == 2:
        return _product(s, other, False)
    raise RuntimeError(f"matmul: a sparse left operand needs a 2-D sparse tensor and a 1-D or 2-D dense one "
                       f"(got {s.dim()}-D and {other.dim()}-D)")


def _dims(op: str, s: SparseCooTensor, dim) -> list[int]:
    dims = [dim] if isinstance(dim, int) else list(dim)
    n = s.dim()
    out = []
    for d in dims:
        if not -n <= d < n:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {d})")
        out.append(d % n)
    return sorted(set(out))


def sum(input: Tensor, dim=None, dtype=None) -> Tensor:  # noqa: A001 - torch.sparse.sum
    """The sum of a sparse tensor over ``dim`` (all dims: a 0-d dense tensor). Summing every sparse dim
    gives a dense tensor; otherwise the result is sparse (coalesced) over the remaining sparse dims.

    Example::

        >>> import borch_webgpu as torch
        >>> s = torch.sparse_coo_tensor([[0, 1, 1], [2, 0, 2]], [3., 4., 5.], (2, 3))
        >>> torch.sparse.sum(s), torch.sparse.sum(s, 1).to_dense()
        (tensor(12.), tensor([3., 9.]))
    """
    if not isinstance(input, SparseCooTensor):
        raise RuntimeError("coalesce expected sparse coordinate tensor layout but got Strided")
    v = input._sp_values if dtype is None else input._sp_values.to(dtype)
    if dim is None:
        return v.sum()
    dims = _dims("sum", input, dim)
    sd = input.sparse_dim()
    sparse_dims = [d for d in dims if d < sd]
    dense_dims = [d - sd + 1 for d in dims if d >= sd]
    if dense_dims:
        v = v.sum(dense_dims)
    if len(sparse_dims) == sd:
        return v.sum(0)
    from .creation import zeros
    keep = [d for d in range(sd) if d not in sparse_dims]
    sizes = tuple(input._shape[d] for d in keep)
    input._linear()  # the bounds check
    lin = np.ravel_multi_index(tuple(input._host_indices()[keep]), sizes)
    uniq, inv = np.unique(lin, return_inverse=True)
    idx = np.array(np.unravel_index(uniq, sizes), np.int64).reshape(len(keep), -1)
    vals = zeros((len(uniq), *v._shape[1:]), dtype=v.dtype, device=v.device).index_add(
        0, _idx_tensor(inv.reshape(-1), input), v)
    shape = sizes + tuple(s for i, s in enumerate(input._shape[sd:]) if i + sd not in dims)
    return make_sparse(_idx_tensor(idx, input), vals, shape, True, idx, fn="SumBackward")


def _softmax(op: str, input: Tensor, dim: int, dtype, log: bool) -> SparseCooTensor:
    if not isinstance(input, SparseCooTensor):
        raise NotImplementedError(f"Could not run 'aten::_sparse_{op}' with arguments from the 'CPU' backend. "
                                  f"torch.sparse.{op} expects a sparse COO tensor; use torch.{op} for dense ones")
    from .creation import tensor
    s = input.coalesce()
    n = s.dim()
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    sd = s.sparse_dim()
    lin = s._linear()
    mask = np.zeros(int(np.prod(s._shape[:sd])), bool)
    mask[lin] = True
    mask = tensor(mask.reshape(s._shape[:sd] + (1,) * s.dense_dim()), device=s.device)
    dense = s.to_dense() if dtype is None else s.to_dense().to(dtype)
    dense = dense.masked_fill(mask.logical_not(), float("-inf"))
    out = dense.log_softmax(dim) if log else dense.softmax(dim)
    rows = out.reshape(-1, *s._shape[sd:]).index_select(0, _idx_tensor(lin, s))
    return make_sparse(s._sp_indices, rows, s._shape, True, s._sp_np,
                       fn="LogSoftmaxBackward0" if log else "SoftmaxBackward0")


def softmax(input: Tensor, dim: int, *, dtype=None) -> SparseCooTensor:
    """Softmax over ``dim`` of the specified entries only (unspecified ones count as -inf, so they stay
    unspecified); the result has the coalesced input's indices.

    Example::

        >>> import borch_webgpu as torch
        >>> s = torch.sparse_coo_tensor([[0, 0], [0, 2]], [1., 1.], (1, 3))
        >>> torch.sparse.softmax(s, 1).to_dense()
        tensor([[0.5000, 0.0000, 0.5000]])
    """
    return _softmax("softmax", input, dim, dtype, False)


def log_softmax(input: Tensor, dim: int, *, dtype=None) -> SparseCooTensor:
    """``log(softmax(input, dim))`` over the specified entries (see :func:`softmax`).

    Example::

        >>> import borch_webgpu as torch
        >>> s = torch.sparse_coo_tensor([[0, 0], [0, 2]], [1., 1.], (1, 3))
        >>> torch.sparse.log_softmax(s, 1).values()
        tensor([-0.6931, -0.6931])
    """
    return _softmax("log_softmax", input, dim, dtype, True)



class check_sparse_tensor_invariants:
    """Check the indices of every ``torch.sparse_coo_tensor`` made while enabled (a context manager, a
    decorator, or ``enable()`` / ``disable()``); an explicit ``check_invariants=`` argument wins.

    Example::

        >>> import borch_webgpu as torch
        >>> with torch.sparse.check_sparse_tensor_invariants():
        ...     torch.sparse.check_sparse_tensor_invariants.is_enabled()
        True
    """
    _enabled = False

    def __init__(self, enable: bool = True):
        self.state = enable
        self.saved = None

    @staticmethod
    def is_enabled() -> bool:
        """True while the checks are on."""
        return check_sparse_tensor_invariants._enabled

    @staticmethod
    def enable() -> None:
        """Turn the checks on."""
        check_sparse_tensor_invariants._enabled = True

    @staticmethod
    def disable() -> None:
        """Turn the checks off."""
        check_sparse_tensor_invariants._enabled = False

    def __enter__(self):
        if self.saved is not None:
            raise RuntimeError("This context manager instance is already activated. Use a different context "
                               "manager instance for context nesting.")
        self.saved = check_sparse_tensor_invariants._enabled
        check_sparse_tensor_invariants._enabled = self.state
        return self

    def __exit__(self, *exc):
        check_sparse_tensor_invariants._enabled = self.saved
        self.saved = None

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapped(*args, **kwargs):
            with check_sparse_tensor_invariants(self.state):
                return fn(*args, **kwargs)
        return wrapped


# ---- the sparse tensor's methods built on these ---------------------------------------------------------
def _sum_method(self, dim=None, keepdim: bool = False, dtype=None):
    if keepdim:
        raise NotImplementedError("sum: keepdim=True is not supported for sparse tensors here")
    return sum(self, dim, dtype=dtype)


def _mm_method(self, mat2: Tensor) -> Tensor:
    return _product(self, mat2, False)


SparseCooTensor.sum = _sum_method
SparseCooTensor.mm = _mm_method
SparseCooTensor.matmul = SparseCooTensor.__matmul__ = _matmul
