"""Dtypes: what the API reports (PyTorch's names) and what the device stores.

WebGPU storage buffers hold 32-bit words, so:
- ``int64`` is accepted and reported like PyTorch's default integer type, but held as
  int32; values outside int32's range raise ``OverflowError`` when they enter.
- ``bool`` is held as one u32 (0 or 1) per element.
- ``float64`` does not exist on the device: asking for it raises ``TypeError``; numpy
  float64 data given to ``tensor()`` becomes float32 (PyTorch's default float type).
"""
from __future__ import annotations

import builtins

import numpy as np

__all__ = ["dtype", "float32", "float", "float16", "half", "int32", "int", "int64", "long", "bool",
           "float64", "double", "get_default_dtype", "set_default_dtype", "result_type_of"]


class dtype:
    """A tensor element type, named and printed as PyTorch names it (``torch.float32``)."""

    __slots__ = ("name", "np", "storage_np", "wgsl", "itemsize", "is_floating_point", "is_signed",
                 "category", "rank", "supported")

    def __init__(self, name: str, np_dtype, storage_np, wgsl: str, category: int, rank: int,
                 supported: bool = True):
        self.name = name
        self.np = np.dtype(np_dtype)
        self.storage_np = np.dtype(storage_np)
        self.wgsl = wgsl
        self.itemsize = self.np.itemsize
        self.is_floating_point = category == 2
        self.is_signed = name != "bool"
        self.category = category  # 0 bool, 1 integer, 2 floating
        self.rank = rank          # order inside a category for promotion
        self.supported = supported

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def __reduce__(self):
        return (_by_name, (self.name,))

    @property
    def is_complex(self) -> bool:
        return False

    def to_real(self) -> "dtype":
        return self


float32 = dtype("float32", np.float32, np.float32, "f32", 2, 1)
float16 = dtype("float16", np.float16, np.float16, "f16", 2, 0)
float64 = dtype("float64", np.float64, np.float64, "f32", 2, 2, supported=False)
int32 = dtype("int32", np.int32, np.int32, "i32", 1, 0)
int64 = dtype("int64", np.int64, np.int32, "i32", 1, 1)
bool_ = dtype("bool", np.bool_, np.uint32, "u32", 0, 0)

# PyTorch's aliases
float = float32  # noqa: A001 - torch.float
half = float16
double = float64
int = int32  # noqa: A001 - torch.int
long = int64
bool = bool_  # noqa: A001 - torch.bool

_ALL = {d.name: d for d in (float32, float16, float64, int32, int64, bool_)}


def _by_name(name: str) -> dtype:
    return _ALL[name]


_default_float = float32


def get_default_dtype() -> dtype:
    """The dtype of floating tensors made from Python floats (``float32``)."""
    return _default_float


def set_default_dtype(d: dtype) -> None:
    """Only ``float32`` can be the default here: WebGPU has no float64."""
    if d is not float32:
        raise TypeError(f"set_default_dtype: only torch.float32 is supported on WebGPU, got {d!r}")


_NP_TO_DTYPE = {
    np.dtype(np.float32): float32, np.dtype(np.float64): float32, np.dtype(np.float16): float16,
    np.dtype(np.int32): int32, np.dtype(np.int64): int64, np.dtype(np.int16): int64,
    np.dtype(np.int8): int64, np.dtype(np.uint8): int64, np.dtype(np.uint16): int64,
    np.dtype(np.uint32): int64, np.dtype(np.uint64): int64, np.dtype(np.bool_): bool_,
}


def from_numpy_dtype(npd) -> dtype:
    """The dtype a numpy array of this dtype becomes (float64 becomes float32)."""
    try:
        return _NP_TO_DTYPE[np.dtype(npd)]
    except KeyError:
        raise TypeError(f"can't convert np.ndarray of type {np.dtype(npd)}. The only supported types are: "
                        "float32, float64 (stored as float32), float16, int64, int32, int16, int8, uint8, "
                        "and bool.") from None


def check_supported(d: dtype, op: str) -> dtype:
    if not isinstance(d, dtype):
        raise TypeError(f"{op}: dtype must be a borch_webgpu dtype such as torch.float32, got {d!r}")
    if not d.supported:
        raise TypeError(f"{op}: {d!r} is not supported on WebGPU (it has no 64-bit floats); use torch.float32")
    return d


def result_type_of(tensors_dtypes, zero_dim_dtypes=(), scalars=()) -> dtype:
    """PyTorch's promotion: dimensioned tensors win within a category, then 0-d tensors,
    then Python scalars (which only lift the category: float scalar -> float32, int -> int64).
    """
    def best(ds):
        cat, r, out = -1, -1, None
        for d in ds:
            if (d.category, d.rank) > (cat, r):
                cat, r, out = d.category, d.rank, d
        return out

    dim_best = best(tensors_dtypes)
    zero_best = best(zero_dim_dtypes)
    scalar_cat = -1
    for s in scalars:
        c = 0 if isinstance(s, builtins.bool) else (2 if isinstance(s, builtins.float) else 1)
        scalar_cat = max(scalar_cat, c)
    out = dim_best
    if zero_best is not None and (out is None or zero_best.category > out.category):
        out = zero_best
    if scalar_cat >= 0 and (out is None or scalar_cat > out.category):
        out = (bool_, int64, float32)[scalar_cat]
    if out is None:
        raise ValueError("result_type: no operands")
    return out

