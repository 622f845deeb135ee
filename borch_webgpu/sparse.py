"""``torch.sparse``: products, sums and softmaxes of sparse COO tensors (``borch_webgpu/ops/sparse_fns.py``),
and PyTorch's repr of a sparse tensor, which prints through ``_tensor_str`` like a dense one.

The arithmetic is dense-backed on either device (see ``ops/_sparse.py``): the sparse operand is scattered
into a dense tensor on its device and our dense kernels run; the results PyTorch returns sparse come back
sparse, with PyTorch's indices.
"""
from __future__ import annotations

import numpy as np

from . import _dtype
from ._tensor_str import PRINT_OPTS, tensor_body
from .ops._sparse import SparseCooTensor
from .ops.sparse_fns import addmm, check_sparse_tensor_invariants, log_softmax, mm, softmax, sum  # noqa: A004

__all__ = ["mm", "addmm", "sum", "softmax", "log_softmax", "check_sparse_tensor_invariants"]


def sparse_repr(self) -> str:
    """PyTorch's repr of a sparse COO tensor (indices, values, then size, nnz, dtype, layout, grad)."""
    from .device import default_device
    indent = len("tensor(")
    suffixes = []
    if self.device.type != default_device().type:
        suffixes.append(f"device='{self.device}'")
    suffixes += ["size=" + str(tuple(self._shape)), f"nnz={self._nnz()}"]
    if self.dtype not in (_dtype.get_default_dtype(), _dtype.int64, _dtype.bool_):
        suffixes.append("dtype=" + repr(self.dtype))
    idx = self._host_indices()
    body_i = tensor_body(idx, False, indent + len("indices=tensor("))
    if idx.size == 0:
        body_i += ", size=" + str(tuple(idx.shape))
    v = self._sp_values
    vals = v._host("printing a tensor")
    floating = v.dtype.is_floating_point
    body_v = tensor_body(vals.astype(np.float64) if floating else vals, floating, indent + len("values=tensor("))
    if vals.size == 0:
        body_v += ", size=" + str(tuple(vals.shape))
    body = "tensor(indices=tensor(" + body_i + "),\n" + " " * indent + "values=tensor(" + body_v + ")"
    suffixes.append("layout=torch.sparse_coo")
    if self.grad_fn is not None:
        suffixes.append(f"grad_fn=<{self.grad_fn.name()}>")
    elif self.requires_grad:
        suffixes.append("requires_grad=True")
    # PyTorch starts a sparse tensor's suffixes on a new line (force_newline), then fills lines as usual
    parts, line = [body, ",\n" + " " * indent + suffixes[0]], indent + len(suffixes[0])
    for suffix in suffixes[1:]:
        if line + len(suffix) + 2 > PRINT_OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            line = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            line += len(suffix) + 2
    return "".join(parts) + ")"


SparseCooTensor.__repr__ = SparseCooTensor.__str__ = sparse_repr
