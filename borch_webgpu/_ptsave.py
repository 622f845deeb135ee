"""Writing a PyTorch checkpoint: the pickle ``torch.save`` makes (protocol 2, tensors as
``torch._utils._rebuild_tensor_v2`` over persistent ``('storage', torch.FloatStorage, key, 'cpu', numel)``
ids, parameters as ``_rebuild_parameter``, dtypes as ``torch.float32``, ``torch.Size``, ``torch.device``),
then the records of the zip (borch_webgpu/_ptzip.py). The output is a function of the object alone, so
a file saved twice is the same bytes."""
from __future__ import annotations

import io
import math
import pickle
from collections import OrderedDict

import numpy as np

from . import _dtype
from ._ptload import depth_of
from ._ptpickle import MAX_PICKLE_DEPTH, STORAGE_OF
from ._ptzip import write_archive
from .tensor import Size, Tensor

__all__ = ["dumps"]

_STORAGE, _CPU = "storage", "cpu"  # one object each, so the pickle memoizes them as torch's does


class _Global:
    """A name the pickle refers to (``torch._utils._rebuild_tensor_v2``), written as GLOBAL."""

    def __init__(self, module: str, name: str):
        self.module, self.name = module, name

    def __call__(self, *args):  # pickle's save_reduce wants a callable
        raise TypeError(f"{self.module}.{self.name} is a reference for pickling only")


_G = {n: _Global(m, n) for m, n in (("torch._utils", "_rebuild_tensor_v2"), ("torch._utils", "_rebuild_parameter"),
                                    ("torch", "Size"), ("torch", "device"))}
_GS = {d: _Global("torch", s) for d, s in STORAGE_OF.items()}


class _StorageRef:
    __slots__ = ("pid",)

    def __init__(self, pid):
        self.pid = pid


class _Pickler(pickle._Pickler):
    def __init__(self, file, protocol: int):
        super().__init__(file, protocol)
        self.storages: dict = {}  # id(storage) -> [key, storage, dtype, device]

    def persistent_id(self, obj):
        return obj.pid if type(obj) is _StorageRef else None

    def save(self, obj, save_persistent_id=True):
        if type(obj) is _Global or type(obj) is _dtype.dtype:
            x = self.memo.get(id(obj))
            if x is not None:
                self.write(self.get(x[0]))
                return
            module, name = (obj.module, obj.name) if type(obj) is _Global else ("torch", obj.name)
            if self.proto >= 4:
                self.save(module)
                self.save(name)
                self.write(pickle.STACK_GLOBAL)
            else:
                self.write(pickle.GLOBAL + module.encode() + b"\n" + name.encode() + b"\n")
            self.memoize(obj)
            return
        super().save(obj, save_persistent_id)

    def reducer_override(self, obj):
        if isinstance(obj, Tensor):
            from .nn.parameter import Parameter
            if isinstance(obj, Parameter):
                return _G["_rebuild_parameter"], (obj.detach(), obj.requires_grad, OrderedDict())
            # fresh tuples (shapes and strides may be cached, shared objects), so the memo works as in torch
            return _G["_rebuild_tensor_v2"], (self._storage(obj), obj._offset, tuple([*obj._shape]),
                                              tuple([*obj._stride]), obj.requires_grad, OrderedDict())
        if type(obj) is Size:
            return _G["Size"], (tuple(obj),)
        from .device import device
        if isinstance(obj, device):
            return _G["device"], ((_CPU,) if obj.type == "cpu" else ("cuda", 0))
        return NotImplemented

    def _storage(self, t: Tensor) -> _StorageRef:
        st = t._storage
        entry = self.storages.get(id(st))
        if entry is None:
            entry = self.storages[id(st)] = [str(len(self.storages)), st, t.dtype, t._device]
        elif entry[2] is not t.dtype:
            raise RuntimeError("Cannot save multiple tensors or storages that view the same data as different "
                               "types")
        return _StorageRef((_STORAGE, _GS[t.dtype.name], entry[0], _CPU, _numel(st, t.dtype)))


def _numel(st, dtype) -> int:
    """Elements of a storage: a GPU buffer holds dtype.gpu_np (int64 as int32), a host array storage_np."""
    return st.nbytes // (dtype.storage_np if st.backend.name == "cpu" else dtype.gpu_np).itemsize


def _storage_bytes(st, dtype, dev) -> bytes:
    """A whole storage's values as PyTorch stores that dtype (little-endian; bool as one byte)."""
    numel = _numel(st, dtype)
    whole = Tensor._make(st, (numel,), dtype, dev)
    arr = whole.detach()._host("save()")
    if dtype.name == "bool":
        arr = arr.astype(np.uint8)
    elif dtype.name == "bfloat16":  # float32 values of bfloat16s: their upper halves (BFloat16Storage)
        from .device.bf16 import to_bits
        arr = to_bits(arr)
    return np.ascontiguousarray(arr, dtype=arr.dtype.newbyteorder("<")).tobytes()


def dumps(obj, name: str = "archive", protocol: int = 2) -> bytes:
    """The bytes of ``torch.save(obj, f)``; ``name`` is the archive's folder."""
    depth = depth_of(obj)
    if depth > MAX_PICKLE_DEPTH:
        raise ValueError("save: the object contains itself" if depth == math.inf else
                         f"save: the object nests {depth} containers deep; torch.load reads at most "
                         f"{MAX_PICKLE_DEPTH}, so flatten it")
    buf = io.BytesIO()
    p = _Pickler(buf, protocol)
    p.dump(obj)
    records = [("data.pkl", buf.getvalue()), (".format_version", b"1"), (".storage_alignment", b"64"),
               ("byteorder", b"little")]
    for key, st, dtype, dev in p.storages.values():
        records.append((f"data/{key}", _storage_bytes(st, dtype, dev)))
    return write_archive(records, name)
