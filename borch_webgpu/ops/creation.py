"""Tensor creation: tensor, as_tensor, from_numpy, zeros, ones, full, empty, arange, *_like."""
from __future__ import annotations

import builtins
import math
import numbers

import numpy as np

from .. import _dtype
from ..device import backend_for, canonical
from ..tensor import Tensor
from ._registry import OpDef, api, methods, register

__all__ = ["tensor", "as_tensor", "from_numpy", "zeros", "ones", "full", "empty", "arange", "linspace", "eye",
           "zeros_like", "ones_like", "full_like", "empty_like"]

INT32_MIN, INT32_MAX = -(2 ** 31), 2 ** 31 - 1

FILL = register(OpDef("fill", "unary", ("ops_unary.wgsl", "copy"), lambda a: a, tol=(0, 0),
                      doc="fill a new tensor with one value (zeros, ones, full)"))
COPY = register(OpDef("_to_copy", "unary", ("ops_unary.wgsl", "copy"), lambda a: a, tol=(0, 0),
                      doc="copy with a dtype conversion (Tensor.to, .float(), .int(), ...)"))


def _size_arg(op: str, size, kw) -> tuple[int, ...]:
    """``size`` given positionally (``zeros(2, 3)``, ``zeros((2, 3))``) or as PyTorch's keyword ``size=``."""
    if kw is not None:
        if size:
            raise TypeError(f"{op}() got multiple values for argument 'size'")
        size = (kw,)
    return _shape_arg(op, size)


def _size_kw(op: str, kw: dict):
    size = kw.pop("size", None)
    if kw:
        raise TypeError(f"{op}() got an unexpected keyword argument '{next(iter(kw))}'")
    return size


def _shape_arg(op: str, size) -> tuple[int, ...]:
    if not size:
        raise TypeError(f"{op}() missing 1 required positional arguments: \"size\"")
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    out = []
    for s in size:
        if isinstance(s, Tensor):
            s = s.item()
        if not isinstance(s, numbers.Integral) or isinstance(s, builtins.bool):
            raise TypeError(f"{op}(): argument 'size' must be a tuple of ints, but found element of type "
                            f"{type(s).__name__}")
        if s < 0:
            raise RuntimeError(f"{op}(): Trying to create tensor with negative dimension {s}: {list(size)}")
        out.append(builtins.int(s))
    return tuple(out)


def _check_int32(op: str, arr: np.ndarray) -> None:
    if arr.size and arr.dtype.kind in "iu":
        lo, hi = arr.min(), arr.max()
        if lo < INT32_MIN or hi > INT32_MAX:
            bad = lo if lo < INT32_MIN else hi
            raise OverflowError(f"{op}: value {builtins.int(bad)} does not fit in int32 (range {INT32_MIN} to "
                                f"{INT32_MAX})")


def _from_host(op: str, arr: np.ndarray, dtype, device, requires_grad: bool = False) -> Tensor:
    dtype = _dtype.check_supported(dtype, op)
    dev = canonical(device)
    if dtype.name == "float16" and dev.type == "webgpu":
        _require_f16(op)
    if dtype.host and dtype.category == 1:  # int8, uint8, int16: wrap as PyTorch's casts (device/cpu.py)
        from ..device.cpu import f2small
        arr = f2small(arr, dtype) if arr.dtype.kind == "f" else np.asarray(arr).astype(np.int64).astype(dtype.np)
    elif dtype.category == 1:
        if arr.dtype.kind == "f" and arr.size:
            with np.errstate(invalid="ignore"):
                arr = np.trunc(arr)
            if not np.isfinite(arr).all():
                raise RuntimeError(f"{op}: cannot convert non-finite float values to {dtype!r}")
        if dtype.name == "int32":
            _check_int32(op, arr)
        elif arr.dtype.kind == "f":
            from ..device.cpu import f2i64
            arr = f2i64(arr)
    elif dtype.name == "bool":
        arr = arr != 0
    storage = backend_for(dev).from_numpy(np.asarray(arr).astype(dtype.storage_np, copy=False), dtype)
    t = Tensor._make(storage, arr.shape, dtype, dev)
    if requires_grad:
        t.requires_grad = True
    return t


def _nested_to_numpy(op: str, data) -> np.ndarray:
    """Lists/tuples of numbers (or 0-d tensors) to numpy, with PyTorch's error for ragged input."""
    def shape_of(x, dim):
        if isinstance(x, Tensor):
            return list(x._shape)
        if isinstance(x, np.ndarray):
            return list(x.shape)
        if isinstance(x, (list, tuple)):
            if not x:
                return [0]
            first = shape_of(x[0], dim + 1)
            for item in x[1:]:
                s = shape_of(item, dim + 1)
                if s != first:
                    if isinstance(item, (list, tuple)) and isinstance(x[0], (list, tuple)):
                        raise ValueError(f"expected sequence of length {first[0]} at dim {dim + 1} (got {s[0]})")
                    raise ValueError(f"{op}: ragged nested sequence: elements of different shapes at dim {dim}")
            return [len(x)] + first
        if isinstance(x, (numbers.Number, np.generic)):
            return []
        if isinstance(x, str):
            raise ValueError("too many dimensions 'str'")
        raise TypeError(f"{op}: could not convert element of type {type(x).__name__} to a tensor element")

    shape_of(data, 0)

    def plain(x):
        if isinstance(x, Tensor):
            return x.tolist()
        if isinstance(x, (list, tuple)):
            return [plain(i) for i in x]
        return x
    return np.array(plain(data))


def _infer(data) -> tuple[np.ndarray, _dtype.dtype]:
    if isinstance(data, np.ndarray):
        arr = data
    elif isinstance(data, Tensor):
        arr = data.detach()._host("tensor()") if hasattr(data, "detach") else data._host("tensor()")
        return arr, data.dtype
    elif isinstance(data, (list, tuple)):
        arr = _nested_to_numpy("tensor", data)
        if arr.dtype == np.uint64 or arr.dtype == object and arr.size and isinstance(arr.flat[0], numbers.Integral):
            raise ValueError("Overflow when unpacking long long")   # a Python int past int64, as PyTorch says
        if arr.dtype == np.float64 and not _has_numpy_f64(data):  # Python floats: the default dtype
            return arr, _dtype.get_default_dtype()
        if arr.dtype == np.complex128 and not _has_numpy_f64(data, np.complex128):  # Python complex numbers
            return arr, _dtype.get_default_dtype().to_complex()
    elif isinstance(data, (builtins.bool, np.bool_)):
        arr = np.array(data, dtype=np.bool_)
    elif isinstance(data, (np.uint8, np.int8, np.int16)):  # keeps its dtype, as in PyTorch
        arr = np.array(data)
    elif isinstance(data, numbers.Integral):
        arr = np.array(builtins.int(data)) if -(2 ** 63) <= data < 2 ** 63 else None
        if arr is None:
            raise ValueError("Overflow when unpacking long long")   # PyTorch's words
    elif isinstance(data, np.floating):
        arr = np.array(data)
    elif isinstance(data, numbers.Real):
        return np.array(builtins.float(data)), _dtype.get_default_dtype()
    elif isinstance(data, np.complexfloating):
        arr = np.array(data)
    elif isinstance(data, numbers.Complex):
        return np.array(builtins.complex(data)), _dtype.get_default_dtype().to_complex()
    else:
        raise TypeError(f"tensor(): could not infer dtype of {type(data).__name__}")
    if arr.dtype.kind in "iu" and arr.dtype == np.int32 and not isinstance(data, np.ndarray):
        arr = arr.astype(np.int64)
    return arr, _dtype.from_numpy_dtype(arr.dtype)


def _has_numpy_f64(data, npd=np.float64) -> bool:
    """Whether nested data holds a numpy float64 (or npd: complex128; a scalar or an array), which keeps
    that dtype as in PyTorch; Python floats (complex numbers) take the default (complex) dtype."""
    if isinstance(data, (list, tuple)):
        return any(_has_numpy_f64(x, npd) for x in data)
    return isinstance(data, (np.ndarray, np.generic)) and data.dtype == npd


def tensor(data, dtype=None, device=None, requires_grad: bool = False, pin_memory: bool = False) -> Tensor:
    """Make a tensor from data: nested lists, Python scalars, numpy arrays (always a copy).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.tensor([[1., 2.], [3., 4.]])
        tensor([[1., 2.],
                [3., 4.]])
    """
    arr, inferred = _infer(data)
    d = dtype if dtype is not None else inferred
    if isinstance(d, _dtype.dtype) and d.host and d.category == 1 and not isinstance(data, (np.ndarray, Tensor)):
        _check_small_int(d, np.asarray(arr))
    return _from_host("tensor", np.asarray(arr), d, device, requires_grad)


def check_fill_value(d, value: int) -> None:
    """A Python integer filling an int8 / uint8 / int16 tensor (``full``, ``fill_``) must fit, as in
    PyTorch; uint8 also takes -255..-1 (-1 fills 255)."""
    info = np.iinfo(d.np)
    lo = -builtins.int(info.max) if d.name == "uint8" else builtins.int(info.min)
    if not lo <= value <= builtins.int(info.max):
        raise RuntimeError(f"value cannot be converted to type {d.name}_t without overflow")


def _check_small_int(d, arr: np.ndarray) -> None:
    """Python numbers given to ``tensor(..., dtype=int8/uint8/int16)`` must fit, as PyTorch checks them
    (a numpy array wraps instead): floats within [min, max], integers too, except that uint8 also takes
    -255..-1 (two's complement: -1 -> 255)."""
    if not arr.size or arr.dtype.kind == "b":
        return
    info = np.iinfo(d.np)
    lo = -builtins.int(info.max) if arr.dtype.kind in "iu" and d.name == "uint8" else builtins.int(info.min)
    with np.errstate(invalid="ignore"):
        ok = (arr >= lo) & (arr <= builtins.int(info.max))
    if not ok.all():
        raise RuntimeError(f"value cannot be converted to type {d.name} without overflow")


def as_tensor(data, dtype=None, device=None) -> Tensor:
    """Like :func:`tensor`, but returns ``data`` itself when it is already a tensor of that dtype and device."""
    if isinstance(data, Tensor):
        return data.to(device=canonical(device) if device is not None else data.device,
                       dtype=dtype if dtype is not None else data.dtype)
    if isinstance(data, np.ndarray):
        shared = _shared_cpu(data, _dtype.from_numpy_dtype(data.dtype) if dtype is None else dtype, device)
        if shared is not None:
            return shared
    return tensor(data, dtype=dtype, device=device)


def from_numpy(ndarray: np.ndarray) -> Tensor:
    """A tensor with the array's values and dtype (float64 stays float64). On the ``cpu`` device a writable
    float32, float64, float16, int32 or int64 array (with non-negative strides) is shared, as PyTorch shares it (writes to
    either show in the other); other arrays (bool is held in 32 bits here) and WebGPU tensors are copies, since WebGPU
    memory cannot alias numpy's.

    Example::

        >>> import numpy as np
        >>> torch.from_numpy(np.array([0.1, 0.2])) * 3
        tensor([0.3000, 0.6000], dtype=torch.float64)
    """
    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(ndarray).__name__})")
    dtype = _dtype.from_numpy_dtype(ndarray.dtype)
    shared = _shared_cpu(ndarray, dtype, None)
    return shared if shared is not None else _from_host("from_numpy", ndarray, dtype, None)


def _shared_cpu(arr: np.ndarray, dtype, device) -> Tensor | None:
    """A cpu tensor over arr's own memory (PyTorch's from_numpy / as_tensor share it), where the cpu device
    holds the dtype as numpy does (float32, float64, float16, int32, int64) and arr is writable with non-negative
    strides; None otherwise (the caller copies)."""
    dev = canonical(device)
    item = arr.itemsize
    if (dev.type != "cpu" or arr.dtype != dtype.np or dtype.np != dtype.storage_np or not arr.flags.writeable
            or any(st < 0 or st % item for st in arr.strides)):
        return None
    from numpy.lib.stride_tricks import as_strided
    from ..device.cpu import CPUStorage
    # a flat view over the array's extent; the tensor keeps the array's strides (a transposed array stays one)
    span = 1 + builtins.sum((n - 1) * st // item for n, st in zip(arr.shape, arr.strides)) if arr.size else 0
    flat = as_strided(arr, shape=(span,), strides=(item,))
    return Tensor._make(CPUStorage(flat), tuple(arr.shape), dtype, dev, stride=tuple(st // item for st in arr.strides))


def full(size, fill_value, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """A tensor of the given size filled with ``fill_value``."""
    shape = _shape_arg("full", (size,) if not isinstance(size, (tuple, list)) else (tuple(size),))
    if dtype is None:
        dtype = _dtype.result_type_of((), (), (fill_value,))
    return _filled("full", shape, fill_value, dtype, device, requires_grad)


def _require_f16(op: str) -> None:
    from ..device.webgpu import runtime
    rt = runtime()
    if "shader-f16" not in rt.features:
        raise TypeError(f"{op}: float16 on WebGPU needs the adapter feature 'shader-f16', which this adapter "
                        f"({rt.adapter.get('vendor')} / {rt.adapter.get('architecture')}) does not have; use float32")


def _filled(op: str, shape, value, dtype, device, requires_grad: bool) -> Tensor:
    dtype = _dtype.check_supported(dtype, op)
    if dtype.name == "float16" and canonical(device).type == "webgpu":
        _require_f16(op)
    if isinstance(value, Tensor):
        value = value.item()
    if dtype.category == 1:
        if isinstance(value, builtins.float) and not math.isfinite(value):
            raise RuntimeError(f"{op}: value cannot be converted to type {dtype.name} without overflow")
        value = builtins.int(value)
        if dtype.host:
            check_fill_value(dtype, value)
        elif not -(2 ** 63) <= value < 2 ** 63 or (dtype.name == "int32" and not INT32_MIN <= value <= INT32_MAX):
            raise RuntimeError(f"value cannot be converted to type {'int' if dtype.name == 'int32' else 'int64_t'} "
                               "without overflow")   # PyTorch's message
    elif dtype.name == "bool":
        value = builtins.bool(value)
    elif dtype.is_complex:
        value = builtins.complex(value)
    else:
        value = builtins.float(value)
    dev = canonical(device)
    C = dtype if dtype.name not in ("bool", "float16") else (_dtype.int32 if dtype.name == "bool" else _dtype.float32)
    storage = backend_for(dev).elementwise(FILL, [value], C, C, shape, dtype)
    t = Tensor._make(storage, shape, dtype, dev)
    if requires_grad:
        t.requires_grad = True
    return t


def zeros(*size, dtype=None, device=None, requires_grad: bool = False, **kw) -> Tensor:
    """A tensor of zeros: ``zeros(2, 3)``, ``zeros((2, 3))`` or ``zeros(size=(2, 3))``.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.zeros(size=(2, 3)).shape
        torch.Size([2, 3])
    """
    return _filled("zeros", _size_arg("zeros", size, _size_kw("zeros", kw)), 0, dtype or _dtype.get_default_dtype(), device, requires_grad)


def ones(*size, dtype=None, device=None, requires_grad: bool = False, **kw) -> Tensor:
    """A tensor of ones: ``ones(2, 3)``, ``ones((2, 3))`` or ``ones(size=(2, 3))``.

    Example::

        >>> import borch_webgpu as torch
        >>> (torch.ones(2, 3) * 2).sum().item()
        12.0
    """
    return _filled("ones", _size_arg("ones", size, _size_kw("ones", kw)), 1, dtype or _dtype.get_default_dtype(), device, requires_grad)


def empty(*size, dtype=None, device=None, requires_grad: bool = False, **kw) -> Tensor:
    """An uninitialised tensor (here: zeros on the cpu device, whatever the pool held on WebGPU).

    The size is given as ``empty(2, 3)``, ``empty((2, 3))`` or ``empty(size=(2, 3))``.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.empty(size=(4,)).shape
        torch.Size([4])
    """
    shape = _size_arg("empty", size, _size_kw("empty", kw))
    dtype = _dtype.check_supported(dtype or _dtype.get_default_dtype(), "empty")
    dev = canonical(device)
    t = Tensor._make(backend_for(dev).empty(math.prod(shape), dtype), shape, dtype, dev)
    if requires_grad:
        t.requires_grad = True
    return t


def held_empty(shape, dtype) -> Tensor:
    """An uninitialised int64 tensor of the webgpu device held on the host, for an op that writes values
    past int32 into it (cat of a held tensor: device/int64_range.py)."""
    from ..device import CPU, WEBGPU
    storage = backend_for(CPU).empty(math.prod(shape), dtype)
    storage.held = True
    return Tensor._make(storage, shape, dtype, WEBGPU)


def _like(name, fn):
    def like(input: Tensor, *args, dtype=None, device=None, requires_grad: bool = False, **kw) -> Tensor:
        return fn(input._shape, *args, dtype=dtype or input.dtype, device=device or input.device,
                  requires_grad=requires_grad)
    like.__name__ = like.__qualname__ = name
    like.__doc__ = f"``{name}(input)``: like ``{fn.__name__}`` with the size, dtype and device of ``input``."
    return like


zeros_like = _like("zeros_like", zeros)
ones_like = _like("ones_like", ones)
empty_like = _like("empty_like", empty)


def full_like(input: Tensor, fill_value, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """A tensor of ``input``'s size (and dtype, device) filled with ``fill_value``."""
    return full(input._shape, fill_value, dtype=dtype or input.dtype, device=device or input.device,
                requires_grad=requires_grad)


def arange(start=0, end=None, step=1, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """Values from ``start`` up to (not including) ``end`` every ``step``: ``arange(5)``, ``arange(1, 4, 0.5)``."""
    if end is None:
        start, end = 0, start
    vals = [v.item() if isinstance(v, Tensor) else v for v in (start, end, step)]
    for v in vals:
        if not isinstance(v, numbers.Real):
            raise TypeError(f"arange(): start, end and step must be numbers, got {type(v).__name__}")
        if isinstance(v, builtins.float) and not math.isfinite(v):
            raise RuntimeError(f"arange: unsupported range: {vals[0]} -> {vals[1]}")
    start, end, step = vals
    if step == 0:
        raise RuntimeError("arange: step must be nonzero")
    if (step > 0 and start > end) or (step < 0 and start < end):
        raise RuntimeError(f"arange: upper bound and larger bound inconsistent with step sign "
                           f"(start={start}, end={end}, step={step})")
    is_float = any(isinstance(v, builtins.float) for v in vals)
    if dtype is not None and dtype.name == "bool":
        raise NotImplementedError("\"arange_cpu\" not implemented for 'Bool'")
    if dtype is None:
        dtype = _dtype.get_default_dtype() if is_float else _dtype.int64
    n = builtins.int(math.ceil((end - start) / step))
    arr = start + np.arange(n, dtype=np.float64) * step
    if dtype.category != 2:
        arr = np.asarray(np.floor(arr) if step > 0 else np.ceil(arr), dtype=np.int64) if is_float else \
            np.arange(start, end, step, dtype=np.int64)
    return _from_host("arange", arr, dtype, device, requires_grad)


register(OpDef("arange", "creation", None, None, tol=(0, 0), doc="evenly spaced values (host)"))
register(OpDef("linspace", "creation", None, None, tol=(1e-6, 1e-6), doc="evenly spaced values (host)"))
register(OpDef("eye", "creation", None, None, tol=(0, 0), doc="identity matrix (host)"))


def linspace(start, end, steps: int, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """``steps`` values from ``start`` to ``end`` inclusive, evenly spaced (PyTorch's formula)."""
    if steps < 0:
        raise RuntimeError("linspace: number of steps must be non-negative")
    start = start.item() if isinstance(start, Tensor) else start
    end = end.item() if isinstance(end, Tensor) else end
    d = dtype or _dtype.get_default_dtype()
    # PyTorch's kernel: the first half from start, the second from end, in the output's float type
    # (double steps for integer outputs)
    ft = np.float32 if d.is_floating_point and d.name != "float64" else np.float64
    s, e = ft(start), ft(end)
    if steps == 1:
        arr = np.array([s])
    else:
        step = ft((e - s) / ft(steps - 1))
        i = np.arange(steps).astype(ft)
        half = steps // 2
        arr = np.where(np.arange(steps) < half, s + step * i, e - step * (ft(steps - 1) - i))
    if d.category == 1:
        arr = np.trunc(arr).astype(np.int64)
    return _from_host("linspace", arr if d.category == 1 else arr.astype(ft), d, device, requires_grad)


def eye(n: int, m: int | None = None, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """The n x m identity matrix."""
    m = n if m is None else m
    if n < 0 or m < 0:
        raise RuntimeError(f"eye: n and m must be non-negative, got {n} and {m}")
    return _from_host("eye", np.eye(n, m), dtype or _dtype.get_default_dtype(), device, requires_grad)


def to_copy(t: Tensor, dev, dt, non_blocking: bool = False) -> Tensor:
    """Copy ``t`` to another device and/or dtype (Tensor.to). ``non_blocking`` from WebGPU to the cpu
    starts the copy and returns at once: the values are waited for when first used."""
    from ..autograd.grad_mode import is_grad_enabled
    if non_blocking and t._device.type == "webgpu" and dev.type == "cpu" and dt is t.dtype and \
            not (t.requires_grad and is_grad_enabled()) and t.dtype.storage_np == t.dtype.np:
        return Tensor._make(t._backend().to_cpu_later(t), t._shape, dt, dev)
    if t.dtype.is_complex or dt.is_complex:
        from .complex import complex_cast   # numpy on the host, with PyTorch's warning for complex -> real
        return complex_cast(t, dev, dt)
    if dev != t.device:
        host = t.detach()._host("Tensor.to()")
        out = _from_host("to", host, dt, dev)
        if dt.is_floating_point and t.dtype.is_floating_point:
            from .. import autograd
            src_dev, src_dt = t.device, t.dtype
            autograd.record("ToCopyBackward0", [t], [out], lambda g: (g.to(src_dev).to(src_dt),))
        return out
    if dt.name == "float16" and dev.type == "webgpu":
        _require_f16("to")
    C = {"bool": _dtype.int32, "float16": _dtype.float32}.get(t.dtype.name, t.dtype)
    storage = backend_for(dev).elementwise(COPY, [t], C, C, t._shape, dt)
    out = Tensor._make(storage, t._shape, dt, dev)
    if dt.is_floating_point and t.dtype.is_floating_point:
        from .. import autograd
        src = t.dtype
        autograd.record("ToCopyBackward0", [t], [out], lambda g: (g.to(src),))
    return out


def _new(name, fn):
    def new(self, *size, dtype=None, device=None, requires_grad: bool = False, **kw) -> Tensor:
        return fn(*size, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)
    new.__name__, new.__qualname__ = name, f"Tensor.{name}"
    new.__doc__ = f"``{fn.__name__}(*size)`` with this tensor's dtype and device unless given."
    return new


def _new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """``full(size, fill_value)`` with this tensor's dtype and device unless given."""
    if not isinstance(size, (tuple, list)):
        raise TypeError(f"new_full(): argument 'size' (position 1) must be tuple of ints, not {type(size).__name__}")
    return full(size, fill_value, dtype=dtype or self.dtype, device=device or self.device,
                requires_grad=requires_grad)


def _new_tensor(self, data, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """``tensor(data)`` (always a copy) with this tensor's dtype and device unless given."""
    if isinstance(data, Tensor):
        import warnings
        warnings.warn("To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
                      "sourceTensor.detach().clone().requires_grad_(True), rather than "
                      "tensor.new_tensor(sourceTensor).", UserWarning, stacklevel=2)
        data = data.detach()
    return tensor(data, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)


def _to(self, *args, **kwargs) -> Tensor:
    """``to(device)``, ``to(dtype)``, ``to(device, dtype)``, ``to(other)``; returns self when nothing changes."""
    from ..device import device as _device_cls
    dev, dt = None, None
    copy = kwargs.pop("copy", False)
    non_blocking = kwargs.pop("non_blocking", False)
    for a in list(args) + list(kwargs.values()):
        if isinstance(a, _dtype.dtype):
            dt = a
        elif isinstance(a, (str, _device_cls)):
            dev = canonical(a)
        elif isinstance(a, Tensor):
            dev, dt = a.device, a.dtype
        elif a is not None:
            raise TypeError(f"to() received an invalid combination of arguments: {a!r}")
    dt = _dtype.check_supported(dt, "to") if dt is not None else self.dtype
    dev = dev if dev is not None else self.device
    if dev == self.device and dt is self.dtype and not copy:
        return self
    return to_copy(self, dev, dt, non_blocking=non_blocking)


# ---- the public names (bound by borch_webgpu/_bind.py) ------------------------------------------
methods(("tensor", tensor), ("as_tensor", as_tensor), ("from_numpy", from_numpy), ("full", full), ("zeros", zeros),
        ("ones", ones), ("empty", empty), ("zeros_like", zeros_like), ("ones_like", ones_like),
        ("empty_like", empty_like), ("full_like", full_like), ("arange", arange), ("linspace", linspace),
        ("eye", eye), tensor=False)
api("to", method=_to)
api("new_zeros", method=_new("new_zeros", zeros))
api("new_ones", method=_new("new_ones", ones))
api("new_empty", method=_new("new_empty", empty))
api("new_full", method=_new_full)
api("new_tensor", method=_new_tensor)
# for the autograd engine, which sits below the ops and makes zero gradients through Tensor
api("_zeros", method=staticmethod(lambda shape, dtype, device: zeros(shape, dtype=dtype, device=device)))
