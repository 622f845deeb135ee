"""Dtypes: what the API reports (PyTorch's names) and what the device stores.

WebGPU storage buffers hold 32-bit words, so:
- ``int64`` is PyTorch's default integer type with its full range. On ``cpu`` it is numpy's int64
  (wrapping at 2**64 as PyTorch's does: ``torch.arange(70000).sum()`` is 2449965000). WebGPU buffers
  hold 32-bit words, so on ``webgpu`` an int64 tensor whose values fit int32 (index tensors, targets)
  lives on the GPU as int32, and one whose values do not is **held on the host** (numpy int64, computed
  by the cpu kernels, ``t.device`` still ``webgpu:0``), as float64 is: values entering past int32 make
  such a tensor, and a host result that fits goes back to the GPU. A GPU kernel whose exact int64 result
  leaves int32 (``torch.tensor([2**31 - 1], device='webgpu') + 1``, ``torch.arange(70000).sum()``) moves
  that result to the host, exact, at its first read (device/gpu_int64_promote.py); when a later GPU op
  used it before any read, that read raises ``OverflowError`` naming the op, the value and the line;
  never a wrapped value. Sums, products, cumsum and matmul accumulate in 64 bits, so results that fit are PyTorch's also
  when partial sums did not fit (device/int64_range.py). ``int32`` wraps, as in PyTorch.
- ``bool`` is held as one u32 (0 or 1) per element.
- ``float64`` is PyTorch's: ``dtype=torch.float64``, ``.double()``, ``torch.set_default_dtype``,
  numpy float64 arrays given to ``tensor()`` / ``from_numpy()`` (and ``torch.tensor(np.float64(x))``)
  stay float64, while Python floats take the default dtype. Every op computes float64 in float64,
  never silently in float32. On ``cpu`` the values are a numpy float64 array. WGSL has no 64-bit
  float, so **a float64 tensor on ``webgpu`` is held on the host** (numpy float64) and computed by
  the cpu device's numpy kernels, while ``t.device`` reports ``webgpu:0`` and ``print(t)`` prints
  what PyTorch prints. Mixing it with float32 WebGPU tensors follows PyTorch's promotion (float64
  wins): the float32 operand is read back from the GPU (a wait), and a result that is not float64
  (``x64 > 0``, ``x64.float()``, ``x64.argmax()``) is uploaded and lives on the GPU again. So
  float64 gives exact float64 answers on both devices, at host (numpy) speed on ``webgpu``; keep
  training in float32 and use float64 for precision checks and numerics.
- ``uint8``, ``int8`` and ``int16`` (``torch.short``; ``.byte()``, ``.char()``, ``.short()``) are PyTorch's:
  arithmetic wraps modulo 2**bits (uint8 ``200 + 100`` is 44, ``-x`` of uint8 is ``256 - x``), casts
  into them wrap (int64 300 -> uint8 44; floats truncate toward zero first, then wrap, through int64 for
  uint8 and int32 for the signed two, so NaN, infinities and values past that type give 0, as PyTorch
  2.13 does on x86), and Python numbers given to ``tensor(..., dtype=...)``, ``full`` or ``fill_`` must
  fit (uint8 also takes -255..-1; numpy arrays wrap instead). Promotion is PyTorch's table: uint8 +
  int8 -> int16, uint8 + int16 -> int16, any of them + int32/int64 -> that, + a float -> the float;
  Python int scalars and 0-d integer tensors keep the tensor's dtype. ``sum``/``prod``/``cumsum`` give
  int64, ``mean`` refuses them, ``any``/``all`` of uint8 give uint8, a uint8 tensor indexes as a mask
  (with PyTorch's deprecation warning). On ``cpu`` they are numpy's native uint8/int8/int16 arrays, so
  numpy's wrapping arithmetic is PyTorch's. WGSL has no 8- or 16-bit integers in storage, so **on
  ``webgpu`` they are held on the host**, exactly as float64 is (``dtype.host``; device/host64.py): the
  cpu kernels compute them while ``t.device`` reports ``webgpu:0``, and results of other dtypes
  (``x > 0``, ``x.float()``, ``x.sum()``) go back to the GPU. Exact everywhere, at numpy speed: they are
  for data (images, labels, quantized weights) more than for GPU math. Bitwise ops and shifts are not
  implemented for integer tensors (any width) yet; they raise.
- ``complex64`` and ``complex128`` (``torch.cfloat``, ``torch.cdouble``) are numpy's complex64 / complex128
  on ``cpu``; WGSL has no complex type, so **on ``webgpu`` they are held on the host** as float64 is
  (``dtype.host``; ops/complex.py, ops/fft.py): ``t.device`` reports ``webgpu:0``, real results
  (``x.abs()``, ``x.real``) go back to the GPU as copies (``.real`` / ``.imag`` / ``view_as_real`` are
  views sharing memory on ``cpu``, copies on ``webgpu``). Promotion is PyTorch's: complex wins over
  floats, at the wider precision (complex64 + float64 -> complex128), and a Python complex scalar makes
  the default complex type (complex128 under a float64 default).
- ``bfloat16`` (``.bfloat16()``) is PyTorch's: 8 exponent bits, 8 significand bits, 2 bytes per element
  (``element_size()``). numpy has no bfloat16, so its values are held as float32 arrays, each value
  rounded to the nearest bfloat16 (ties to even; NaN becomes 0x7FC0), and every op computes in float32 and
  rounds its result, as PyTorch's CPU kernels do: elementwise results are PyTorch's bit for bit.
  Promotion is PyTorch's: bfloat16 + float16 -> float32, + float32/float64 -> that, + integers or Python
  numbers -> bfloat16. WGSL has no bfloat16, so **on ``webgpu`` a bfloat16 tensor is held on the host**,
  as float64 is (``dtype.host``). safetensors ``BF16`` and the ``.pt`` format's ``BFloat16Storage`` load
  and save as bfloat16.
"""
from __future__ import annotations

import builtins

import numpy as np

__all__ = ["dtype", "float32", "float", "float16", "half", "int32", "int", "int64", "long", "bool",
           "uint8", "int8", "int16", "short", "complex64", "complex128", "cfloat", "cdouble",
           "float64", "double", "bfloat16", "get_default_dtype", "set_default_dtype", "result_type_of", "finfo", "iinfo",
           "promote_types", "can_cast"]


class dtype:
    """A tensor element type, named and printed as PyTorch names it (``torch.float32``).

    ``float32``, ``float64``, ``float16`` (on WebGPU where the adapter has ``shader-f16``), ``int32``,
    ``int64`` (numpy int64 on ``cpu``; on ``webgpu`` int32 on the GPU, values past it held on the host), ``uint8``, ``int8``, ``int16``
    (PyTorch's wrap-around arithmetic and casts; on ``webgpu`` held on the host, as float64), ``bfloat16``
    (float32 values rounded to bfloat16 after every op, bit for bit PyTorch's CPU results; 2 bytes per element;
    on ``webgpu`` held on the host) and ``bool``. float64 is
    computed in float64 on both devices; WGSL has no 64-bit float, so on ``webgpu`` a float64 tensor
    is held on the host (numpy) and computed by the cpu kernels while ``t.device`` reports
    ``webgpu:0``; float32 operands mixed in are read back (float64 wins, as in PyTorch's promotion),
    and results of other dtypes (``x > 0``, ``x.float()``) go back to the GPU. ``complex64`` /
    ``complex128`` (``cfloat`` / ``cdouble``) are held on the host on ``webgpu`` in the same way.

    Example::

        >>> x = torch.tensor([0.1, 0.2], dtype=torch.float64)
        >>> (x * 3).sum().item()
        0.9000000000000001
        >>> torch.tensor([200], dtype=torch.uint8) + 100
        tensor([44], dtype=torch.uint8)
        >>> torch.tensor([1 + 2j]) * 1j
        tensor([-2.+1.j])
        >>> torch.tensor([1.0, 3.14159], dtype=torch.bfloat16) * 2
        tensor([2.0000, 6.2812], dtype=torch.bfloat16)
    """

    __slots__ = ("name", "np", "storage_np", "gpu_np", "wgsl", "itemsize", "is_floating_point", "is_signed",
                 "category", "rank", "supported", "host")

    def __init__(self, name: str, np_dtype, storage_np, wgsl: str, category: int, rank: int,
                 supported: bool = True):
        self.name = name
        self.np = np.dtype(np_dtype)
        self.storage_np = np.dtype(storage_np)
        # what a WebGPU buffer holds (32-bit words): int64 as int32 (values past it are held on the host)
        self.gpu_np = np.dtype(np.int32) if name == "int64" else self.storage_np
        self.wgsl = wgsl
        self.itemsize = 2 if name == "bfloat16" else self.np.itemsize  # bfloat16: float32 values, 2 bytes each
        self.is_floating_point = category == 2   # complex (category 3) is not floating, as in PyTorch
        self.is_signed = name not in ("bool", "uint8")
        self.category = category  # 0 bool, 1 integer, 2 floating, 3 complex
        self.rank = rank          # order inside a category for promotion
        self.supported = supported
        # held on the host on webgpu (numpy; device/host64.py): float64 and the 8/16-bit integers
        self.host = name in ("float64", "uint8", "int8", "int16", "complex64", "complex128", "bfloat16")

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def __reduce__(self):
        return (_by_name, (self.name,))

    @property
    def is_complex(self) -> bool:
        return self.category == 3

    def to_real(self) -> "dtype":
        """The real dtype of a complex one (complex64 -> float32); a real dtype itself."""
        return {"complex64": float32, "complex128": float64}.get(self.name, self)

    def to_complex(self) -> "dtype":
        """The complex dtype of a float one (float64 -> complex128, float32 -> complex64)."""
        return complex128 if self.name in ("float64", "complex128") else complex64


float32 = dtype("float32", np.float32, np.float32, "f32", 2, 1)
float16 = dtype("float16", np.float16, np.float16, "f16", 2, 0)
float64 = dtype("float64", np.float64, np.float64, "f64", 2, 2)
int32 = dtype("int32", np.int32, np.int32, "i32", 1, 0)
int64 = dtype("int64", np.int64, np.int64, "i32", 1, 1)
bool_ = dtype("bool", np.bool_, np.uint32, "u32", 0, 0)
# the small integers: native numpy storage on both devices (on webgpu held on the host, as float64)
int8 = dtype("int8", np.int8, np.int8, "", 1, -3)
uint8 = dtype("uint8", np.uint8, np.uint8, "", 1, -2)
int16 = dtype("int16", np.int16, np.int16, "", 1, -1)
# bfloat16: float32 arrays whose values are rounded to bfloat16 (device/bf16.py); held on the host on webgpu
bfloat16 = dtype("bfloat16", np.float32, np.float32, "", 2, 0)

# PyTorch's aliases
float = float32  # noqa: A001 - torch.float
half = float16
double = float64
int = int32  # noqa: A001 - torch.int
long = int64
bool = bool_  # noqa: A001 - torch.bool
short = int16
# complex: numpy complex storage on both devices (on webgpu held on the host, as float64)
complex64 = dtype("complex64", np.complex64, np.complex64, "", 3, 1)
complex128 = dtype("complex128", np.complex128, np.complex128, "", 3, 2)
cfloat = complex64
cdouble = complex128

_ALL = {d.name: d for d in (float32, float16, float64, int32, int64, bool_, uint8, int8, int16, complex64, complex128,
                            bfloat16)}


# PyTorch's ScalarType names, as its error messages write them ("result type Double can't be cast ...")
SCALAR_NAMES = {"float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long", "int32": "Int",
                "bool": "Bool", "uint8": "Byte", "int8": "Char", "int16": "Short", "complex64": "ComplexFloat",
                "complex128": "ComplexDouble", "bfloat16": "BFloat16"}


def _by_name(name: str) -> dtype:
    return _ALL[name]


_default_float = float32


def get_default_dtype() -> dtype:
    """The dtype of floating tensors made from Python floats: ``float32`` unless
    :func:`set_default_dtype` changed it.

    Example::

        >>> torch.get_default_dtype()
        torch.float32
    """
    return _default_float


def set_default_dtype(d: dtype) -> None:
    """Set the dtype that Python floats, ``zeros()``, ``rand()``, layers' parameters ... take
    (``float32``, ``float64`` or ``float16``). With ``float64`` on WebGPU, new float tensors are held
    on the host (see the dtypes above), so it is meant for numerics, not for training speed.

    Example::

        >>> torch.set_default_dtype(torch.float64)
        >>> torch.tensor([1.5]).dtype
        torch.float64
        >>> torch.set_default_dtype(torch.float32)
    """
    global _default_float
    if not isinstance(d, dtype):
        raise TypeError(f"set_default_dtype(): argument 'd' (position 1) must be torch.dtype, not {type(d).__name__}")
    if not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _default_float = d


_NP_TO_DTYPE = {
    np.dtype(np.float32): float32, np.dtype(np.float64): float64, np.dtype(np.float16): float16,
    np.dtype(np.int32): int32, np.dtype(np.int64): int64, np.dtype(np.int16): int16,
    np.dtype(np.int8): int8, np.dtype(np.uint8): uint8, np.dtype(np.uint16): int64,
    np.dtype(np.uint32): int64, np.dtype(np.uint64): int64, np.dtype(np.bool_): bool_,
    np.dtype(np.complex64): complex64, np.dtype(np.complex128): complex128,
}


def from_numpy_dtype(npd) -> dtype:
    """The dtype a numpy array of this dtype becomes."""
    try:
        return _NP_TO_DTYPE[np.dtype(npd)]
    except KeyError:
        raise TypeError(f"can't convert np.ndarray of type {np.dtype(npd)}. The only supported types are: "
                        "float64, float32, float16, complex64, complex128, int64, int32, int16, int8, uint8, "
                        "and bool.") from None


def check_supported(d: dtype, op: str) -> dtype:
    if not isinstance(d, dtype):
        raise TypeError(f"{op}: dtype must be a borch_webgpu dtype such as torch.float32, got {d!r}")
    return d


def result_type_of(tensors_dtypes, zero_dim_dtypes=(), scalars=()) -> dtype:
    """PyTorch's promotion: dimensioned tensors win within a category, then 0-d tensors,
    then Python scalars (which only lift the category: float scalar -> the default dtype, int -> int64).
    """
    def best(ds):
        out = None
        for d in ds:
            out = d if out is None else _promote(out, d)
        return out

    dim_best = best(tensors_dtypes)
    zero_best = best(zero_dim_dtypes)
    scalar_cat = -1
    for s in scalars:
        c = 0 if isinstance(s, builtins.bool) else (2 if isinstance(s, builtins.float) else
                                                    (3 if isinstance(s, builtins.complex) else 1))
        scalar_cat = max(scalar_cat, c)
    out = dim_best
    if zero_best is not None and (out is None or zero_best.category > out.category):
        # a 0-d complex over dimensioned floats: complex at the floats' precision (PyTorch's rule)
        out = out.to_complex() if zero_best.category == 3 and out is not None and out.category == 2 else zero_best
    if scalar_cat >= 0 and (out is None or scalar_cat > out.category):
        if scalar_cat == 3:
            out = (out if out is not None and out.category == 2 else _default_float).to_complex()
        else:
            out = (bool_, int64, _default_float)[scalar_cat]
    if out is None:
        raise ValueError("result_type: no operands")
    return out


# ---- dtype information and promotion queries (torch.finfo, torch.promote_types, ...) ----------------
def _dtype_arg(fn: str, name: str, pos: int, d) -> dtype:
    if not isinstance(d, dtype):
        raise TypeError(f"{fn}(): argument '{name}' (position {pos}) must be torch.dtype, not {type(d).__name__}")
    return d


class _DefaultDtype:
    """finfo()'s default: the default dtype (an explicit None is refused, as in PyTorch)."""

    def __repr__(self) -> str:
        return "torch.get_default_dtype()"


_DEFAULT_DTYPE = _DefaultDtype()


class finfo:
    """Machine limits of a floating-point dtype (``torch.finfo``); without an argument, of the
    default dtype.

    Attributes: ``bits``, ``eps`` (1.0's distance to the next float), ``max``, ``min``, ``tiny`` and
    ``smallest_normal`` (the smallest positive normal number), ``resolution`` (10 ** -decimal digits),
    ``dtype`` (its name, a ``str``).

    Example::

        >>> torch.finfo(torch.float32).eps
        1.1920928955078125e-07
        >>> torch.finfo(torch.float16)
        finfo(resolution=0.001, min=-65504, max=65504, eps=0.000976562,
              smallest_normal=6.10352e-05, tiny=6.10352e-05, dtype=float16)
    """

    __slots__ = ("bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution", "dtype")

    def __init__(self, type: dtype = _DEFAULT_DTYPE) -> None:  # noqa: A002 - PyTorch's argument name
        if type is _DEFAULT_DTYPE:
            type = get_default_dtype()
        if type is builtins.float:
            type = float64
        elif type is builtins.int:
            type = int64
        d = _dtype_arg("finfo", "type", 1, type).to_real()   # complex: its parts' float type, as PyTorch
        if not d.is_floating_point:
            raise TypeError("torch.finfo() requires a floating point input type. Use torch.iinfo to handle "
                            "'torch.finfo'")
        if d is bfloat16:
            self.bits, self.eps, self.max, self.min = 16, 0.0078125, 3.3895313892515355e+38, -3.3895313892515355e+38
            self.tiny = self.smallest_normal = 1.1754943508222875e-38
            self.resolution, self.dtype = 0.01, d.name
            return
        info = np.finfo(d.np)
        self.bits = info.bits
        self.eps = builtins.float(info.eps)
        self.max = builtins.float(info.max)
        self.min = builtins.float(info.min)
        self.tiny = self.smallest_normal = builtins.float(info.smallest_normal)
        self.resolution = builtins.float(f"1e-{info.precision}")
        self.dtype = d.name

    def __eq__(self, other) -> bool:
        return isinstance(other, finfo) and all(getattr(self, k) == getattr(other, k) for k in self.__slots__)

    __hash__ = None  # type: ignore[assignment] - unhashable, as PyTorch's

    def __repr__(self) -> str:
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, eps={self.eps:g}, "
                f"smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, dtype={self.dtype})")


class iinfo:
    """Machine limits of an integer dtype (``torch.iinfo``): ``bits``, ``min``, ``max``, ``dtype`` (a ``str``).

    ``int64`` is PyTorch's 64-bit range on both devices (on ``webgpu`` values past int32 are held on
    the host; a GPU kernel's result that leaves int32 moves there at its first read, or raises
    ``OverflowError`` when a later GPU op used it first).

    Example::

        >>> torch.iinfo(torch.int32).max
        2147483647
        >>> torch.iinfo(torch.int64)
        iinfo(min=-9.22337e+18, max=9.22337e+18, dtype=int64)
    """

    __slots__ = ("bits", "min", "max", "dtype")

    def __init__(self, type: dtype) -> None:  # noqa: A002 - PyTorch's argument name
        if type is builtins.int:
            type = int64
        d = _dtype_arg("iinfo", "type", 1, type)
        if d.is_floating_point:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to handle 'torch.iinfo'")
        if d.name == "bool":
            raise TypeError("torch.bool is not supported by torch.iinfo")
        info = np.iinfo(d.np)
        self.bits, self.min, self.max, self.dtype = info.bits, builtins.int(info.min), builtins.int(info.max), d.name

    def __eq__(self, other) -> bool:
        return isinstance(other, iinfo) and all(getattr(self, k) == getattr(other, k) for k in self.__slots__)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"iinfo(min={builtins.float(self.min):g}, max={builtins.float(self.max):g}, dtype={self.dtype})"


def promote_types(type1: dtype, type2: dtype) -> dtype:
    """The smallest dtype that both ``type1`` and ``type2`` convert to without losing their kind
    (bool < integers < floats; the wider one within a kind; uint8 and int8 meet in int16).

    Example::

        >>> torch.promote_types(torch.int32, torch.float16)
        torch.float16
        >>> torch.promote_types(torch.bool, torch.int64)
        torch.int64
        >>> torch.promote_types(torch.uint8, torch.int8)
        torch.int16
    """
    a, b = _dtype_arg("promote_types", "type1", 1, type1), _dtype_arg("promote_types", "type2", 2, type2)
    return _promote(a, b)


def _promote(a: dtype, b: dtype) -> dtype:
    """PyTorch's promotion table: the higher kind, the wider type within it; uint8 and int8 meet in int16,
    bfloat16 and float16 in float32."""
    if {a.name, b.name} == {"uint8", "int8"}:
        return int16
    if {a.category, b.category} == {2, 3}:  # complex and float: complex at the wider precision
        return complex128 if "float64" in (a.name, b.name) or "complex128" in (a.name, b.name) else complex64
    if {a.name, b.name} == {"bfloat16", "float16"}:
        return float32
    return a if (a.category, a.rank) >= (b.category, b.rank) else b


def can_cast(from_: dtype, to: dtype) -> bool:
    """Whether PyTorch's type promotion allows casting ``from_`` to ``to``: floats do not go to
    integers or bool, and nothing but bool goes to bool.

    Example::

        >>> torch.can_cast(torch.int64, torch.float16)
        True
        >>> torch.can_cast(torch.float32, torch.int32)
        False
    """
    a, b = _dtype_arg("can_cast", "from_", 1, from_), _dtype_arg("can_cast", "to", 2, to)
    if a.is_complex and not b.is_complex:
        return False
    if a.is_floating_point and not (b.is_floating_point or b.is_complex):
        return False
    return not (b.name == "bool" and a.name != "bool")
