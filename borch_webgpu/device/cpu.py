"""The ``cpu`` device: numpy arrays as storage, each op's numpy reference as its kernel.

It runs everywhere (CPython and Pyodide). ``int64`` is numpy's int64 here, with PyTorch's full range
and its wrap-around at 2**64 (device/int64_range.py); bool is held as u32, as on WebGPU. The cpu
kernels also compute what the webgpu device holds on the host (float64, the small integers, int64
values past int32: device/host64.py).
"""
from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import as_strided

from . import capture
from .bf16 import round_bf16


class CPUStorage:
    # held: an int64 storage of the webgpu device kept on the host because its values leave int32
    # (tensor.py's _host64_place); its views stay there too
    # rounded: the values are bfloat16 values (Tensor._make rounds a bfloat16 tensor's storage once)
    __slots__ = ("array", "held", "rounded", "__weakref__")

    def __init__(self, array: np.ndarray):
        # a tensor's storage is writable, as PyTorch's is (in-place ops, .grad.zero_()): a read-only numpy
        # result (np.broadcast_to, a view of a read-only buffer) is copied once here
        self.array = array if array.flags.writeable else array.copy()
        self.held = self.rounded = False

    @property
    def backend(self):
        return BACKEND

    @property
    def nbytes(self) -> int:
        return self.array.nbytes

    @property
    def bid(self):
        """A GPU kernel was handed this host storage: a float64 tensor of the webgpu device (held on the
        host, see borch_webgpu/_dtype.py) met a float32/int tensor in an op that runs on the GPU."""
        raise TypeError("this op got a tensor held on the host (float64, int8/uint8/int16, or int64 values past "
                        "int32's range) together with GPU tensors on webgpu, and it runs on the GPU, which holds "
                        "none of those: convert the operands first (.double() for float64 precision, .float() "
                        "for GPU speed, int64 values within int32's range for GPU indices)")


class DeferredCPUStorage(CPUStorage):
    """A cpu storage whose values are still on their way from the GPU (``to("cpu", non_blocking=True)``):
    the first use of ``array`` waits for them; until then Python and the GPU run side by side."""

    __slots__ = ("_resolve",)

    def __init__(self, resolve):
        self._resolve = resolve

    @property
    def array(self) -> np.ndarray:
        try:
            return CPUStorage.array.__get__(self)
        except AttributeError:
            arr = self._resolve()
            CPUStorage.array.__set__(self, arr)
            self._resolve = None
            return arr

    @property
    def nbytes(self) -> int:
        return self.array.nbytes


def compute_np(d):
    """The numpy dtype an op computes in for dtype d (bool computes as numpy bool, int64 as int64)."""
    return np.bool_ if d.name == "bool" else d.np


class CPUBackend:
    name = "cpu"

    def empty(self, numel: int, dtype) -> CPUStorage:
        return CPUStorage(np.empty(numel, dtype=dtype.storage_np))

    def from_numpy(self, arr: np.ndarray, dtype) -> CPUStorage:
        if dtype.name == "bfloat16":
            return _rounded(CPUStorage(round_bf16(np.asarray(arr).astype(np.float32, order="C")).reshape(-1)))
        return CPUStorage(np.array(arr, dtype=dtype.storage_np, order="C").reshape(-1))   # one copy, always

    def view(self, t) -> np.ndarray:
        """A numpy view of tensor t (storage dtype); writes go to the tensor."""
        if capture._active is not None:
            capture._active.host_op("work on the cpu device")
        if not isinstance(t._storage, CPUStorage):
            # a GPU operand (an index, a mask) of an op that runs here because its data is float64
            # (held on the host on webgpu): its values, read back; read-only, as writes would be lost.
            # (No local name for its storage: an int64 result past int32 moves to the host at this read
            # only when tensors alone hold it, device/gpu_int64_promote.py.)
            a = t._storage.backend.to_numpy(t, "an op on float64 data (held on the host, see the dtypes)")
            a.flags.writeable = False
            return a
        a = t._storage.array
        item = a.itemsize
        return as_strided(a[t._offset:], shape=t._shape, strides=tuple(s * item for s in t._stride))

    def to_numpy(self, t) -> np.ndarray:
        return np.array(self.view(t), copy=True)

    def write(self, t, values: np.ndarray) -> None:
        """Copy values (broadcastable, any dtype) into the view of t."""
        self.view(t)[...] = round_bf16(values) if t.dtype.name == "bfloat16" else values

    def elementwise(self, op, operands, C, R, shape, out_dtype=None, params=(), out=None, wgsl=None) -> CPUStorage:
        """Run an elementwise op: compute in C, the op returns R, the result is stored as out_dtype (R).
        params: op parameters passed to the reference after the operands; out: a view to write into."""
        O = out_dtype or R
        cnp = compute_np(C)
        args = []
        for x in operands:
            if isinstance(x, (bool, int, float, complex)):
                args.append(np.asarray(x).astype(cnp))
            else:
                args.append(np.broadcast_to(self.view(x).astype(cnp, copy=False), shape))
        with np.errstate(all="ignore"):
            res = op.ref(*args, *params)
        res = np.broadcast_to(np.asarray(res), shape)
        if O.name == "bool" and R.name != "bool":
            res = res != 0
        elif res.dtype.kind == "f" and O.host and O.category == 1:
            res = f2small(res, O)
        elif res.dtype.kind == "f" and O.category == 1:
            res = f2i64(res) if O.name == "int64" else _f2i(res)
        with np.errstate(over="ignore"):  # float64 past float32's range becomes inf, as in PyTorch
            res = res.astype(O.storage_np)
        if O.name == "bfloat16":
            res = round_bf16(res)
        if out is not None:
            self.view(out)[...] = res
            return out._storage
        st = CPUStorage(np.ascontiguousarray(res).reshape(-1))
        return _rounded(st) if O.name == "bfloat16" else st

    def reduce(self, op, x, dims: tuple[int, ...], out_shape, C, R, params=(), wgsl=None) -> CPUStorage:
        """Reduce x over dims with the op's numpy reference ``ref(values, dims, *params)``."""
        v = self.view(x).astype(compute_np(C), copy=False)
        with np.errstate(all="ignore"):
            out = (op.extra["refs"][wgsl[1]] if wgsl else op.ref)(v, dims, *params)
        out = np.asarray(out)
        out = out.astype(R.storage_np).reshape(out_shape)
        if R.name == "bfloat16":
            return _rounded(CPUStorage(round_bf16(out).reshape(-1)))
        return CPUStorage(np.ascontiguousarray(out).reshape(-1))


def _rounded(st: CPUStorage) -> CPUStorage:
    st.rounded = True
    return st


def _f2i(a: np.ndarray) -> np.ndarray:
    """float -> int32 as WGSL converts: toward zero, saturating, NaN -> 0."""
    with np.errstate(invalid="ignore"):
        return np.nan_to_num(np.clip(np.trunc(a), -2.0 ** 31, 2.0 ** 31 - 128), nan=0.0)


def f2small(a: np.ndarray, O) -> np.ndarray:
    """float -> int8 / uint8 / int16 as PyTorch 2.13 on x86 converts: toward zero, then wrapped modulo
    2**bits (300.5 -> 44 for uint8, -1.5 -> 255); the intermediate is int64 for uint8 and int32 for the
    signed ones, and a value outside it (or NaN, an infinity) converts to that type's minimum, whose
    low bits are 0."""
    bound = 2.0 ** 63 if O.name == "uint8" else 2.0 ** 31
    with np.errstate(invalid="ignore"):
        t = np.trunc(np.asarray(a, dtype=np.float64))
        t = np.where(np.abs(t) < bound, t, 0.0)
    return t.astype(np.int64).astype(O.np)


def f2i64(a: np.ndarray) -> np.ndarray:
    """float -> int64 as PyTorch 2.13 on x86 converts: toward zero; NaN, infinities and values past
    int64 give its minimum (the x86 conversion's answer)."""
    with np.errstate(invalid="ignore"):
        t = np.trunc(np.asarray(a, dtype=np.float64))
        ok = np.abs(t) < 2.0 ** 63
    return np.where(ok, np.where(ok, t, 0.0).astype(np.int64), np.int64(-2 ** 63))


BACKEND = CPUBackend()
