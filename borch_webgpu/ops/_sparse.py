"""Sparse COO tensors (``torch.sparse_coo_tensor``, ``Tensor.to_sparse``): a ``Tensor`` subclass that holds
``indices`` (int64, sparse_dim x nnz) and ``values`` (nnz x dense dims) on the tensor's device.

The arithmetic is dense-backed: ``to_dense()`` scatters the values into a dense tensor with ``index_add``
(on WebGPU: our kernels on the device), and ``torch.sparse.mm``, ``torch.mm`` / ``addmm`` / ``@`` with a
sparse left operand multiply that dense tensor. Gradients reach the values (and a sparse leaf's ``.grad``,
a sparse tensor with the leaf's coalesced indices) through those ops. The indices are read to the host once
per tensor (coalescing sorts them there, as PyTorch's CPU kernel does).

A sparse tensor has no strided storage: a dense op that PyTorch does not run on sparse tensors raises
PyTorch's ``NotImplementedError`` ("Could not run 'aten::exp' with arguments from the 'SparseCPU' backend").
"""
from __future__ import annotations

import math

import numpy as np

from .. import _dtype
from ._layout import sparse_coo
from ._sparse_base import _node, _op_name, refuse
from ..tensor import Tensor

__all__ = ["SparseCooTensor", "make_sparse", "refuse"]


def _storage_refused(self):
    raise refuse(_op_name(), self)


class SparseCooTensor(Tensor):
    """A sparse COO tensor (``layout=torch.sparse_coo``); made by ``torch.sparse_coo_tensor`` or
    ``Tensor.to_sparse()``, never directly."""
    __slots__ = ("_sp_indices", "_sp_values", "_sp_coalesced", "_sp_leaf", "_sp_np", "_sp_fn", "_sp_dgrad")

    _storage = property(_storage_refused)
    is_sparse = property(lambda self: True, doc="True: a sparse COO tensor.")
    layout = property(lambda self: sparse_coo, doc="``torch.sparse_coo``.")

    # ---- autograd: through the values ---------------------------------------------------------------
    @property
    def requires_grad(self) -> bool:
        return self._sp_values.requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        if bool(value) == self._sp_values.requires_grad:
            return
        if self._sp_fn is not None and not value:
            raise RuntimeError("you can only change requires_grad flags of leaf variables. If you want to use a "
                               "computed variable in a subgraph that doesn't require differentiation use "
                               "var_no_grad = var.detach().")
        if value and not self.dtype.is_floating_point:
            raise RuntimeError("only Tensors of floating point and complex dtype can require gradients")
        self._sp_values = self._sp_values.detach()
        if value:
            self._sp_values.requires_grad_()
        self._sp_leaf = bool(value)

    def requires_grad_(self, requires_grad: bool = True) -> "SparseCooTensor":
        self.requires_grad = requires_grad
        return self

    @property
    def grad_fn(self):
        return _node(self._sp_fn) if self._sp_fn is not None and self._sp_values.requires_grad else None

    @property
    def is_leaf(self) -> bool:
        return self.grad_fn is None

    @property
    def grad(self):
        """A sparse leaf's gradient: a sparse tensor with the leaf's coalesced indices (None until
        ``backward()``)."""
        g = self._sp_values.grad if self._sp_leaf else None
        dense = self._sp_dgrad if self._sp_leaf else None
        if dense is not None:  # torch.mm / addmm / matmul give a sparse leaf a dense gradient (PyTorch's)
            return dense if g is None else dense + self._masked_grad(g).to_dense()
        return None if g is None else self._masked_grad(g)

    def _masked_grad(self, g: Tensor) -> "SparseCooTensor":
        uniq, first, _ = self._unique()
        idx = np.array(np.unravel_index(uniq, self._shape[:self.sparse_dim()]), np.int64).reshape(
            self.sparse_dim(), -1)
        return make_sparse(_idx_tensor(idx, self), g.index_select(0, _idx_tensor(first, self)), self._shape,
                           False, idx)

    @grad.setter
    def grad(self, value) -> None:
        if value is not None:
            raise RuntimeError("borch_webgpu: a sparse tensor's .grad can only be reset to None")
        if self._sp_leaf:
            self._sp_values.grad = None
            self._sp_dgrad = None

    def _dense_operand(self) -> Tensor:
        """``to_dense()`` for torch.mm / addmm / matmul: a sparse leaf gets its gradient there as a dense
        tensor (as in PyTorch), through a dense leaf made per call whose gradient is added to ``_sp_dgrad``."""
        if not (self._sp_leaf and self._sp_values.requires_grad):
            return self.to_dense()
        proxy = self.to_dense().detach().requires_grad_()

        def keep(g):
            self._sp_dgrad = g if self._sp_dgrad is None else self._sp_dgrad + g
        proxy.register_hook(keep)
        return proxy

    # ---- the COO facts --------------------------------------------------------------------------------
    def sparse_dim(self) -> int:
        """The number of sparse dims (rows of ``indices``)."""
        return self._sp_indices._shape[0]

    def dense_dim(self) -> int:
        """The number of dense dims (the dims of each value)."""
        return len(self._shape) - self.sparse_dim()

    def _nnz(self) -> int:
        return self._sp_indices._shape[1]

    def is_coalesced(self) -> bool:
        """True when the indices are sorted and unique (``coalesce()``, ``to_sparse()``)."""
        return self._sp_coalesced

    def _indices(self) -> Tensor:
        return self._sp_indices

    def _values(self) -> Tensor:
        return self._sp_values

    def indices(self) -> Tensor:
        """The (sparse_dim, nnz) int64 indices of a coalesced tensor."""
        if not self._sp_coalesced:
            raise RuntimeError("Cannot get indices on an uncoalesced tensor, please call .coalesce() first")
        return self._sp_indices

    def values(self) -> Tensor:
        """The (nnz, *dense dims) values of a coalesced tensor (gradients flow through them)."""
        if not self._sp_coalesced:
            raise RuntimeError("Cannot get values on an uncoalesced tensor, please call .coalesce() first")
        return self._sp_values.view(self._sp_values._shape)

    def _host_indices(self) -> np.ndarray:
        if self._sp_np is None:
            self._sp_np = np.asarray(self._sp_indices._host("reading sparse indices"), np.int64)
        return self._sp_np

    def _linear(self) -> np.ndarray:
        """The row-major position of each entry over the sparse dims (checked to lie inside the size)."""
        idx, sizes = self._host_indices(), self._shape[:self.sparse_dim()]
        for d, n in enumerate(sizes):
            if idx.shape[1] and (idx[d].min() < 0 or idx[d].max() >= n):
                bad = idx[d].min() if idx[d].min() < 0 else idx[d].max()
                raise RuntimeError(f"sparse COO tensor: index {bad} is out of bounds for dim {d} with size {n} "
                                   f"(torch.sparse_coo_tensor(..., check_invariants=True) reports it at creation)")
        return np.ravel_multi_index(tuple(idx), sizes) if sizes else np.zeros(idx.shape[1], np.int64)

    def _unique(self):
        """(sorted unique positions, first entry of each, entry -> unique slot)."""
        uniq, first, inv = np.unique(self._linear(), return_index=True, return_inverse=True)
        return uniq.astype(np.int64), first.astype(np.int64), inv.reshape(-1).astype(np.int64)

    def coalesce(self) -> "SparseCooTensor":
        """Sorted, unique indices; the values of repeated indices summed (``self`` when already coalesced)."""
        if self._sp_coalesced:
            return self
        from .creation import zeros
        uniq, _, inv = self._unique()
        sd = self.sparse_dim()
        idx = np.array(np.unravel_index(uniq, self._shape[:sd]), np.int64).reshape(sd, -1)
        v = self._sp_values
        vals = zeros((len(uniq), *v._shape[1:]), dtype=v.dtype, device=v.device).index_add(
            0, _idx_tensor(inv, self), v)
        return make_sparse(_idx_tensor(idx, self), vals, self._shape, True, idx, fn="CoalesceBackward0")

    def to_dense(self, dtype=None, *, masked_grad=None) -> Tensor:
        """The dense tensor: zeros where no index is given, repeated indices summed (differentiable)."""
        from .creation import tensor, zeros
        sd, v = self.sparse_dim(), self._sp_values
        rows = math.prod(self._shape[:sd])
        lin = tensor(self._linear(), dtype=_dtype.int64, device=v.device)
        flat = zeros((rows, *self._shape[sd:]), dtype=v.dtype, device=v.device).index_add(0, lin, v)
        out = flat.reshape(self._shape)
        return out if dtype is None else out.to(dtype)

    def to_sparse(self, sparse_dim=None, **kw) -> "SparseCooTensor":
        if sparse_dim is not None and sparse_dim != self.sparse_dim():
            raise RuntimeError(f"to_sparse: conversion from Sparse to Sparse with sparse_dim argument !=self.sparse_dim() "
                               f"is not supported")
        return self

    # ---- what keeps the sparsity: the values change, the indices stay -------------------------------
    def _with_values(self, values: Tensor, fn: str) -> "SparseCooTensor":
        return make_sparse(self._sp_indices, values, self._shape, self._sp_coalesced, self._sp_np, fn=fn)

    def detach(self) -> "SparseCooTensor":
        return self._with_values(self._sp_values.detach(), None)

    def clone(self, *, memory_format=None) -> "SparseCooTensor":
        return make_sparse(self._sp_indices.clone(), self._sp_values.clone(), self._shape, self._sp_coalesced,
                           self._sp_np, fn="CloneBackward0")

    def to(self, *args, **kwargs) -> "SparseCooTensor":
        v = self._sp_values.to(*args, **kwargs)
        return make_sparse(self._sp_indices.to(v.device), v, self._shape, self._sp_coalesced, self._sp_np,
                           fn="ToCopyBackward0")

    def float(self):
        return self.to(_dtype.float32)

    def double(self):
        return self.to(_dtype.float64)

    def cpu(self):
        return self.to("cpu")

    def cuda(self, device=None):
        return self.to("cuda")

    def __mul__(self, other):
        if isinstance(other, Tensor) and other.dim() > 0:
            raise refuse("mul", self)
        return self._with_values(self._sp_values * other, "MulBackward0")

    __rmul__ = __mul__
    mul = __mul__

    def __truediv__(self, other):
        if isinstance(other, Tensor) and other.dim() > 0:
            raise refuse("div", self)
        return self._with_values(self._sp_values / other, "DivBackward0")

    div = __truediv__

    def __neg__(self):
        return self._with_values(-self._sp_values, "NegBackward0")

    neg = negative = __neg__

    def positive(self) -> "SparseCooTensor":
        return self

    def __add__(self, other):
        if isinstance(other, SparseCooTensor):
            from .shape import cat
            if other._shape != self._shape:
                raise RuntimeError(f"add: expected 'self' and 'other' to have same size, but self has size "
                                   f"{list(self._shape)} while other has size {list(other._shape)} (FYI: dense-sparse "
                                   f"addition does not currently support broadcasting)")
            return make_sparse(cat([self._sp_indices, other._sp_indices], 1), cat([self._sp_values, other._sp_values]),
                               self._shape, False, fn="AddBackward0")
        raise RuntimeError("add(sparse, dense) is not supported. Use add(dense, sparse) instead.")

    add = __add__

    def __radd__(self, other):
        if isinstance(other, Tensor):
            return other + self.to_dense()
        raise refuse("add", self)

    def _valuewise(self, name: str, *args, **kwargs) -> "SparseCooTensor":
        """A zero-preserving elementwise op on the values of the coalesced tensor (PyTorch's result is
        coalesced too)."""
        c = self.coalesce()
        fn = getattr(c._sp_values, name)
        return c._with_values(fn(*args, **kwargs), "".join(p.capitalize() for p in name.split("_")) + "Backward0")

    def select(self, dim: int, index: int):
        """The slice at ``index`` along ``dim``: sparse while a sparse dim remains, else dense (the sum of the
        values at that index)."""
        from .creation import tensor
        n = len(self._shape)
        if not -n <= dim < n:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
        d = dim % n
        size, sd = self._shape[d], self.sparse_dim()
        if not -size <= index < size:
            raise IndexError(f"select(): index {index} out of range for tensor of size {list(self._shape)} at "
                             f"dimension {d}")
        index %= size
        shape = self._shape[:d] + self._shape[d + 1:]
        if d >= sd:
            return make_sparse(self._sp_indices, self._sp_values.select(d - sd + 1, index), shape,
                               self._sp_coalesced, self._sp_np, fn="SelectBackward0")
        idx = self._host_indices()
        keep = np.flatnonzero(idx[d] == index).astype(np.int64)
        vals = self._sp_values.index_select(0, _idx_tensor(keep, self))
        if sd == 1:
            return vals.sum(0)
        new = np.ascontiguousarray(np.delete(idx[:, keep], d, axis=0))
        return make_sparse(tensor(new, dtype=_dtype.int64, device=vals.device), vals, shape, False, new,
                           fn="SelectBackward0")

    def __getitem__(self, key):
        keys = key if isinstance(key, tuple) else (key,)
        if not keys or not all(isinstance(k, int) and not isinstance(k, bool) for k in keys):
            raise refuse("as_strided", self)  # PyTorch's answer to a slice of a sparse tensor
        out = self
        for k in keys:
            if out.dim() == 0:
                raise IndexError(f"too many indices for tensor of dimension {self.dim()}")
            n = out._shape[0]
            if not -n <= k < n:
                raise IndexError(f"index {k} is out of bounds for dimension 0 with size {n}")
            out = out.select(0, k)
        return out

    def to_sparse_coo(self) -> "SparseCooTensor":
        return self

    def t(self) -> "SparseCooTensor":
        """The transpose of a 2-D sparse tensor (indices swapped)."""
        if len(self._shape) != 2 or self.sparse_dim() != 2:
            raise RuntimeError(f"t() expects a tensor with <= 2 sparse and 0 dense dimensions, but got "
                               f"{self.sparse_dim()} sparse and {self.dense_dim()} dense dimensions")
        return self.transpose(0, 1)

    def transpose(self, dim0: int, dim1: int) -> "SparseCooTensor":
        sd = self.sparse_dim()
        d0, d1 = (d % len(self._shape) for d in (dim0, dim1))
        if d0 >= sd or d1 >= sd:
            raise RuntimeError("transpose_: Transposition of dense dimensions is not supported for sparse tensors "
                               "(borch_webgpu: only sparse dims)")
        order = list(range(sd))
        order[d0], order[d1] = d1, d0
        shape = list(self._shape)
        shape[d0], shape[d1] = shape[d1], shape[d0]
        idx = self._host_indices()[order]
        return make_sparse(self._sp_indices[order], self._sp_values.view(self._sp_values._shape), shape, False, idx,
                           fn="TransposeBackward0")

    # sum, mm, matmul and @ are ops/sparse_fns.py's (set on this class there, with torch.sparse's functions)

    def __rmatmul__(self, other):
        if isinstance(other, Tensor):
            return other.matmul(self._dense_operand())
        return NotImplemented

    # ---- what has no strided storage ----------------------------------------------------------------
    def numpy(self, *, force: bool = False):
        raise TypeError("can't convert Sparse layout tensor to numpy. Use Tensor.to_dense() first.")

    def tolist(self):
        raise RuntimeError("Cannot access data pointer of Tensor that doesn't have storage")

    def is_contiguous(self, memory_format=None) -> bool:
        return False

    def reshape(self, *shape):
        raise RuntimeError("reshape is not implemented for sparse tensors")

    def __deepcopy__(self, memo):
        return self.clone()

    # __repr__ / __str__: PyTorch's sparse repr, set by borch_webgpu/sparse.py (it prints through _tensor_str)


def _idx_tensor(a: np.ndarray, like: Tensor) -> Tensor:
    from .creation import tensor
    return tensor(np.ascontiguousarray(a, np.int64), dtype=_dtype.int64, device=like._sp_values.device)


def make_sparse(indices: Tensor, values: Tensor, shape, coalesced: bool, idx_np: np.ndarray | None = None,
                fn: str | None = "SparseCooTensorWithDimsAndTensorsBackward0", leaf: bool = False) -> SparseCooTensor:
    """A SparseCooTensor over ``indices`` and ``values`` (no checks: the caller made them consistent)."""
    t = object.__new__(SparseCooTensor)
    t._shape = tuple(int(s) for s in shape)
    t._stride = (0,) * len(t._shape)
    t._offset = 0
    t.dtype = values.dtype
    t._device = values._device
    t._requires_grad = False
    t._output_nr = 0
    t._accumulator = None
    t._retains_grad = False
    t._hooks = None
    t._base = None
    t._view_src_fn = None
    t._view_fn = None
    t._ver = [0]
    t._sp_indices = indices
    t._sp_values = values
    t._sp_coalesced = bool(coalesced) or indices._shape[1] < 2  # PyTorch: nnz <= 1 is coalesced
    t._sp_np = idx_np
    t._sp_leaf = leaf
    t._sp_fn = None if leaf else fn
    t._sp_dgrad = None
    return t



# the zero-preserving elementwise ops PyTorch runs on sparse COO tensors (checked against torch 2.13)
VALUEWISE = ("abs", "sqrt", "sin", "tan", "tanh", "asin", "atan", "sinh", "asinh", "atanh", "relu", "sign", "sgn",
             "trunc", "floor", "ceil", "round", "expm1", "log1p", "erf", "square", "frac", "rad2deg", "deg2rad",
             "signbit", "isnan", "isinf", "nan_to_num")


def _bind_valuewise() -> None:
    def method(name):
        def f(self, *args, **kwargs):
            return self._valuewise(name, *args, **kwargs)
        f.__name__ = name
        return f
    for name in VALUEWISE:
        setattr(SparseCooTensor, name, method(name))


_bind_valuewise()
