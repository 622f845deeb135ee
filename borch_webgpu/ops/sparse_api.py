"""The public names of sparse COO tensors: ``torch.sparse_coo_tensor``, ``Tensor.layout``, ``to_sparse`` and
``to_dense``, and the COO methods as a dense tensor answers them (PyTorch's errors); the sparse tensor's own
methods are ``ops/_sparse.py``'s, and the torch functions that take a sparse tensor are
``_sparse_dispatch.py``'s."""
from __future__ import annotations

import math

import numpy as np

from .. import _dtype
from ._layout import strided
from ._sparse import make_sparse
from ..tensor import Tensor
from ._registry import api

__all__ = ["sparse_coo_tensor"]

def _as_tensor(x, dtype=None, device=None) -> Tensor:
    from .creation import tensor
    if isinstance(x, Tensor):
        x = x if dtype is None else x.to(dtype)
        return x if device is None else x.to(device)
    return tensor(x, dtype=dtype, device=device)


def sparse_coo_tensor(indices, values, size=None, *, dtype=None, device=None, pin_memory: bool = False,
                      requires_grad: bool = False, check_invariants=None, is_coalesced=None) -> Tensor:
    """A sparse COO tensor with ``values`` at ``indices`` (a sparse_dim x nnz integer tensor); ``size``
    defaults to the smallest that holds every index. Repeated indices are summed when the tensor is
    coalesced or made dense. Held as indices and values on the device; its arithmetic is dense-backed
    (``torch.sparse.mm``, ``torch.mm`` and ``to_dense()`` scatter the values into a dense tensor there).

    Example::

        >>> import borch_webgpu as torch
        >>> s = torch.sparse_coo_tensor([[0, 1, 1], [2, 0, 2]], [3., 4., 5.], (2, 3))
        >>> s.to_dense()
        tensor([[0., 0., 3.],
                [4., 0., 5.]])
    """
    ref = values if isinstance(values, Tensor) else indices if isinstance(indices, Tensor) else None
    dev = device if device is not None else (ref.device if ref is not None else None)
    idx = _as_tensor(indices, device=dev)
    if idx.dtype is not _dtype.int64:
        idx = idx.to(_dtype.int64)
    vals = _as_tensor(values, dtype, dev)
    if idx.dim() != 2:
        raise RuntimeError(f"indices must be sparse_dim x nnz, but got: {list(idx.shape)}")
    sd, nnz = idx._shape
    if vals.dim() == 0:
        raise RuntimeError("values must have at least 1 dimension (nnz x dense dims)")
    if vals._shape[0] != nnz:
        raise RuntimeError(f"indices and values must have same nnz, but got nnz from indices: {nnz}, nnz from "
                           f"values: {vals._shape[0]}")
    host = np.asarray(idx._host("reading sparse indices"), np.int64).reshape(sd, nnz)
    dense_shape = tuple(vals._shape[1:])
    if size is None:
        if nnz and host.min() < 0:
            raise RuntimeError(f"found negative index {host.min()} for dim {int(np.argmin(host.min(1)))}")
        size = tuple(int(host[d].max()) + 1 if nnz else 0 for d in range(sd)) + dense_shape
    size = tuple(int(s) for s in size)
    if len(size) != sd + len(dense_shape):
        raise RuntimeError(f"'len(size) == sparse_dim + dense_dim' is not satisfied: len(size) = {len(size)}, "
                           f"sparse_dim = {sd}, dense_dim = {len(dense_shape)}")
    if size[sd:] != dense_shape:
        raise RuntimeError(f"values has incorrect size, expected {list((nnz,) + size[sd:])}, got "
                           f"{list(vals.shape)}")
    if check_invariants is None:
        from .sparse_fns import check_sparse_tensor_invariants
        check_invariants = check_sparse_tensor_invariants.is_enabled()
    if check_invariants and nnz:
        for d in range(sd):
            lo, hi = int(host[d].min()), int(host[d].max())
            if lo < 0:
                raise RuntimeError(f"found negative index {lo} for dim {d}")
            if hi >= size[d]:
                raise RuntimeError(f"size is inconsistent with indices: for dim {d}, size is {size[d]} but found "
                                   f"index {hi}")
    if requires_grad:
        if not vals.dtype.is_floating_point:
            raise RuntimeError("only Tensors of floating point and complex dtype can require gradients")
        t = make_sparse(idx, vals.detach().requires_grad_(), size, bool(is_coalesced), host, leaf=True)
    else:
        t = make_sparse(idx, vals, size, bool(is_coalesced), host)
    return t


# ---- what a dense tensor answers --------------------------------------------------------------------
def _layout(self) -> object:
    return strided


def to_dense(self: Tensor, dtype=None, *, masked_grad=None) -> Tensor:
    """This tensor as a dense (strided) tensor: a sparse tensor's values scattered into zeros (differentiable
    wrt the values); a dense tensor returns itself.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.sparse_coo_tensor([[1]], [7.], (3,)).to_dense()
        tensor([0., 7., 0.])
    """
    return self if dtype is None else self.to(dtype)


def to_sparse(self: Tensor, sparse_dim: int | None = None, *, layout=None, blocksize=None, dense_dim=None) -> Tensor:
    """A sparse COO tensor of the nonzero entries (over the first ``sparse_dim`` dims; the rest stay dense
    in each value); coalesced, and differentiable wrt this tensor.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.tensor([[0., 1.], [2., 0.]]).to_sparse()
        tensor(indices=tensor([[0, 1],
                               [1, 0]]),
               values=tensor([1., 2.]),
               size=(2, 2), nnz=2, layout=torch.sparse_coo)
    """
    from .creation import tensor
    if layout is not None and layout is not _sparse_coo():
        raise NotImplementedError(f"to_sparse: layout {layout} is not supported here (only torch.sparse_coo)")
    n = self.dim()
    sd = n if sparse_dim is None else int(sparse_dim)
    if not 0 < sd <= n:
        raise RuntimeError(f"sparse_dim must be in [1, {n}] here (got {sd}); a 0-d tensor has no sparse form")
    mask = self.detach() != 0
    if sd < n:
        mask = mask.reshape(*self._shape[:sd], -1).any(-1)
    nz = np.nonzero(np.asarray(mask._host("to_sparse")).reshape(self._shape[:sd]))
    idx = np.stack(nz).astype(np.int64).reshape(sd, -1)
    lin = np.ravel_multi_index(tuple(idx), self._shape[:sd])
    rows = self.reshape(math.prod(self._shape[:sd]), *self._shape[sd:])
    vals = rows.index_select(0, tensor(lin, dtype=_dtype.int64, device=self.device))
    idx_t = tensor(idx, dtype=_dtype.int64, device=self.device)
    return make_sparse(idx_t, vals, self._shape, True, idx, fn="ToSparseBackward0")


def to_sparse_coo(self: Tensor) -> Tensor:
    """``to_sparse()``: a sparse COO tensor of the nonzero entries.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.tensor([0., 2.]).to_sparse_coo().values()
        tensor([2.])
    """
    return to_sparse(self)


def _sparse_coo():
    from ._layout import sparse_coo
    return sparse_coo


def _coo_only(op: str, what: str = "sparse coordinate tensor layout"):
    def method(self: Tensor):
        raise RuntimeError(f"{op} expected {what} but got Strided")
    method.__name__ = op
    method.__doc__ = (f"A sparse COO tensor's ``{op}()``; a dense tensor raises PyTorch's RuntimeError.\n\n"
                      f"    Example::\n\n        >>> torch.sparse_coo_tensor([[0, 0]], [1., 2.], (2,)).coalesce()"
                      f".values()\n        tensor([3.])\n    ")
    return method


def sparse_dim(self: Tensor) -> int:
    """The number of sparse dims (0 for a dense tensor).

    Example::

        >>> torch.zeros(2, 3).sparse_dim(), torch.zeros(2, 3).to_sparse(1).sparse_dim()
        (0, 1)
    """
    return 0


def dense_dim(self: Tensor) -> int:
    """The number of dense dims (every dim of a dense tensor).

    Example::

        >>> torch.zeros(2, 3).dense_dim(), torch.zeros(2, 3).to_sparse(1).dense_dim()
        (2, 1)
    """
    return self.dim()


api("sparse_coo_tensor", sparse_coo_tensor, tensor=False)
api("layout", method=property(_layout, doc="How the elements are stored: ``torch.strided`` for a dense tensor, "
                                             "``torch.sparse_coo`` for a sparse one. Example: "
                                             "``torch.zeros(2).layout`` is ``torch.strided``."))
api("to_dense", to_dense, torch=False)
api("to_sparse", to_sparse, torch=False)
api("to_sparse_coo", to_sparse_coo, torch=False)
api("sparse_dim", sparse_dim, torch=False)
api("dense_dim", dense_dim, torch=False)
for _name in ("coalesce", "is_coalesced", "indices"):
    api(_name, method=_coo_only(_name))
api("values", method=_coo_only("values", "sparse tensor layout"))
