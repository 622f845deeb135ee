"""What a sparse COO tensor shares with nothing dense: the refusal of ops it has no kernel for (named after
the op the user called) and the ``grad_fn`` it shows (its repr is borch_webgpu/sparse.py's)."""
from __future__ import annotations

import sys

from ..tensor import Tensor

__all__ = ["refuse"]

_PACKAGE = __name__.split(".")[0]
_OWN = (__name__, __name__.rsplit(".", 1)[0] + "._sparse")
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
