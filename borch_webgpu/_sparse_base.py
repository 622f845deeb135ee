"""What a sparse COO tensor shares with nothing dense: the refusal of ops it has no kernel for (named after
the op the user called), the ``grad_fn`` it shows, and PyTorch's repr."""
from __future__ import annotations

import sys

import numpy as np

from . import _dtype
from .tensor import Tensor

__all__ = ["refuse", "sparse_repr"]

_PACKAGE = __name__.rsplit(".", 1)[0]
_OWN = (__name__, _PACKAGE + "._sparse")
_GENERIC = {"method", "f", "fn", "traced", "wrapper", "inner", "op", "run"}


def _op_name() -> str:
    """The public borch_webgpu function the user called (the outermost package frame on the stack)."""
    f, name = sys._getframe(2), None
    while f is not None:
        mod = f.f_globals.get("__name__", "")
        if mod.startswith(_PACKAGE) and mod not in _OWN:
            co, rec = f.f_code.co_name, f.f_locals.get("op")
            if hasattr(rec, "family") and isinstance(getattr(rec, "name", None), str):
                name = rec.name  # a generic runner (elementwise.ew, ...) names its op record
            elif not co.startswith("<") and co.strip("_") not in _GENERIC:
                name = co.strip("_").removesuffix("_dispatch")  # torch.log is _log.log_dispatch
        elif name is not None:
            break
        f = f.f_back
    return name or "op"


def refuse(op: str, t: Tensor) -> NotImplementedError:
    backend = "SparseCPU" if t.device.type == "cpu" else "SparseWebGPU"
    return NotImplementedError(
        f"Could not run 'aten::{op}' with arguments from the '{backend}' backend. This could be because the "
        f"operator doesn't exist for this backend, or was omitted during the selective/custom build process (if "
        f"using custom build). borch_webgpu runs torch.sparse.*, mm/addmm/matmul with a sparse left operand and "
        f"the sparse tensor methods on sparse COO tensors; call .to_dense() first for other ops")


class _Node:
    """What ``grad_fn`` shows for a sparse tensor made from values that require grad (the gradient itself
    flows through the values' own graph); one subclass per PyTorch node name, so ``type(grad_fn).__name__``
    reads as PyTorch's."""
    __slots__ = ()

    def name(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        return f"<{type(self).__name__} object>"


_NODES: dict[str, type] = {}


def _node(name: str) -> _Node:
    if name not in _NODES:
        _NODES[name] = type(name, (_Node,), {"__slots__": ()})
    return _NODES[name]()


def sparse_repr(self) -> str:
    """PyTorch's repr of a sparse COO tensor (indices, values, then size, nnz, dtype, layout, grad)."""
    from ._tensor_str import PRINT_OPTS, tensor_body
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
