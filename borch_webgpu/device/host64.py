"""float64 (and int8, uint8, int16: ``dtype.host``) on the webgpu device (WGSL has no f64 and no 8/16-bit
integers; the design is in borch_webgpu/_dtype.py), and int64 tensors whose values leave int32 (held on
the host, device/int64_range.py): the GPU backend hands every elementwise op and reduction that touches
such a tensor, or an int64 op with a Python int past int32, to the cpu backend. float32
(or int, bool) operands still on the GPU are read back by the cpu backend's ``view`` (a wait); a
result that is float64 stays on the host (a numpy array, device HOST64), an int64 result stays there
when its values leave int32, any other result is uploaded to the GPU (or copied into the GPU tensor
``out``)."""
from __future__ import annotations

from .cpu import BACKEND as CPU, CPUStorage


def needed(operands, C, O) -> bool:
    """Whether an op with compute dtype C and stored dtype O (operands: tensors and scalars) runs here."""
    if C.host or O.host:
        return True
    for x in operands:
        if x.__class__ is int:
            if not -0x80000000 <= x <= 0x7FFFFFFF:  # an int64 scalar past int32: exact on the host
                return True
        elif isinstance(getattr(x, "_storage", None), CPUStorage):
            return True
    return False


class _Values:
    """A contiguous GPU operand over a fresh storage (what the GPU backend reads of a tensor)."""

    __slots__ = ("_storage", "_shape", "_stride", "_offset", "dtype")

    def __init__(self, storage, shape, dtype):
        stride, acc = [], 1
        for s in reversed(shape):
            stride.append(acc)
            acc *= s
        self._storage, self._shape, self._stride, self._offset, self.dtype = \
            storage, tuple(shape), tuple(reversed(stride)), 0, dtype


class _Copy:
    """The copy kernel's record as the GPU backend needs it (the op records live above the devices)."""

    name, wgsl = "_to_copy", ("ops_unary.wgsl", "copy")


def _result(gpu, storage, O, shape, out, op="an op"):
    """The op's result as the GPU backend returns it: float64 and the small integers (dtype.host) on the
    host, int64 on the host when its values leave int32 (gpu.from_numpy keeps them there), else on the
    GPU (or in out)."""
    if out is None:
        return storage if O.host else gpu.from_numpy(storage.array, O)
    if isinstance(out._storage, CPUStorage):
        return out._storage
    if O.name == "int64":
        from .int64_range import check_array
        check_array(op, storage.array, in_place=True)   # a GPU tensor written in place holds int32's range
    src = _Values(gpu.from_numpy(storage.array, O), shape, O)
    C = _named(O, {"bool": "int32", "float16": "float32"}.get(O.name, O.name))  # what the copy kernel computes in
    return gpu.elementwise(_Copy, [src], C, C, shape, out.dtype, out=out)


def _named(like, name: str):
    """The dtype called name, found through the dtype like (device modules sit below _dtype.py)."""
    by_name, _ = like.__reduce__()
    return by_name(name)


def elementwise(gpu, op, operands, C, R, shape, O, params, out, wgsl):
    host_out = out if out is not None and isinstance(out._storage, CPUStorage) else None
    st = CPU.elementwise(op, operands, C, R, shape, O, params=params, out=host_out, wgsl=wgsl)
    return _result(gpu, st, O, shape, out, op.name.lstrip("_"))


def reduce(gpu, op, x, dims, out_shape, C, R, params, wgsl):
    st = CPU.reduce(op, x, dims, out_shape, C, R, params=params, wgsl=wgsl)
    return _result(gpu, st, R, out_shape, None)
