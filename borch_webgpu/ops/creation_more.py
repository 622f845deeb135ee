"""More constructors: logspace, tril_indices/triu_indices, scalar_tensor, asarray, frombuffer,
empty_strided, empty_permuted, the window functions (hann, hamming, blackman, bartlett, kaiser), and
torch.numel / fill.

The values are computed on the host (the cosine windows in float32 with PyTorch's steps, the others in
float64) and uploaded once in the requested dtype: they are constants, made once per call."""
from __future__ import annotations

import builtins
import math

import numpy as np

from .. import _dtype
from ..tensor import Tensor
from ._registry import OpDef, methods, register
from .creation import _from_host, empty, full_like, tensor

__all__ = ["logspace", "range", "tril_indices", "triu_indices", "scalar_tensor", "asarray", "frombuffer", "empty_strided",
           "empty_permuted", "hann_window", "hamming_window", "blackman_window", "bartlett_window",
           "kaiser_window", "numel"]

# float32 results of PyTorch's float32 formulas, against these float64 ones rounded: a few ulp
for _n, _doc in (("logspace", "base ** linspace(start, end, steps)"),
                 ("hann_window", "the window functions: cosine sums (hann, hamming, blackman), triangles, Bessel"),):
    register(OpDef(_n, "creation", None, None, tol=(2e-6, 1e-6), doc=_doc, extra={"messages": True}))
for _n, _doc in (("tril_indices", "tril_indices/triu_indices: the (row, col) pairs of a triangle"),
                 ("scalar_tensor", "a 0-d tensor of a number"), ("asarray", "tensor/as_tensor with copy="),
                 ("frombuffer", "a 1-D tensor over a buffer's bytes"),
                 ("empty_strided", "empty_strided/empty_permuted: storage for a given layout")):
    register(OpDef(_n, "creation", None, None, tol=(0, 0), doc=_doc, extra={"messages": True}))


def logspace(start, end, steps: int, base: float = 10.0, *, dtype=None, device=None,
             requires_grad: bool = False) -> Tensor:
    """``steps`` values from ``base ** start`` to ``base ** end``, evenly spaced in the exponent.

    Example::

        >>> torch.logspace(0, 2, 3)
        tensor([  1.,  10., 100.])
    """
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    start = start.item() if isinstance(start, Tensor) else start
    end = end.item() if isinstance(end, Tensor) else end
    d = dtype or _dtype.get_default_dtype()
    if steps == 1:
        e = np.array([builtins.float(start)])
    else:
        step = (builtins.float(end) - builtins.float(start)) / builtins.max(steps - 1, 1)
        i = np.arange(steps, dtype=np.float64)
        half = steps // 2
        e = np.where(i < half, start + step * i, end - step * (steps - 1 - i))
    arr = np.power(np.float64(base), e)
    if d.category == 1:
        arr = np.trunc(arr).astype(np.int64)
    return _from_host("logspace", arr, d, device, requires_grad)


def range(start, end, step=1, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:  # noqa: A001
    """Deprecated (warns, as PyTorch): the values from ``start`` to ``end`` *inclusive*, ``step`` apart, in
    the default float dtype unless ``dtype`` says otherwise. Use ``torch.arange`` (end excluded).

    Example::

        >>> torch.range(1, 2, 0.5)
        tensor([1.0000, 1.5000, 2.0000])
    """
    import warnings
    warnings.warn("torch.range is deprecated and will be removed in a future release because its behavior is "
                  "inconsistent with Python's range builtin. Instead, use torch.arange, which produces values in "
                  "[start, end).", UserWarning, stacklevel=2)
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (step > 0 and start > end) or (step < 0 and start < end):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    n = builtins.int(math.floor((end - start) / step)) + 1
    d = dtype or _dtype.get_default_dtype()
    arr = start + step * np.arange(n, dtype=np.float64)
    if d.category == 1:
        arr = np.trunc(arr).astype(np.int64)
    return _from_host("range", arr, d, device, requires_grad)


def _tri_indices(op: str, row: int, col: int, offset: int, dtype, device, lower: bool) -> Tensor:
    if row < 0:
        raise RuntimeError(f"row must be non-negative, got{row}")
    if col < 0:
        raise RuntimeError(f"col must be non-negative, got{col}")
    r, c = np.tril_indices(row, offset, col) if lower else np.triu_indices(row, offset, col)
    return _from_host(op, np.stack([r, c]).astype(np.int64).reshape(2, -1), dtype or _dtype.int64, device)


def tril_indices(row: int, col: int, offset: int = 0, *, dtype=None, device=None, layout=None) -> Tensor:
    """The ``(2, N)`` coordinates of the lower triangle of a ``row x col`` matrix (on and below diagonal
    ``offset``), row by row.

    Example::

        >>> torch.tril_indices(3, 3)
        tensor([[0, 1, 1, 2, 2, 2],
                [0, 0, 1, 0, 1, 2]])
    """
    return _tri_indices("tril_indices", row, col, offset, dtype, device, True)


def triu_indices(row: int, col: int, offset: int = 0, *, dtype=None, device=None, layout=None) -> Tensor:
    """The ``(2, N)`` coordinates of the upper triangle of a ``row x col`` matrix (on and above diagonal
    ``offset``), row by row.

    Example::

        >>> torch.triu_indices(3, 3, 1)
        tensor([[0, 0, 1],
                [1, 2, 2]])
    """
    return _tri_indices("triu_indices", row, col, offset, dtype, device, False)


def scalar_tensor(s, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """A 0-d tensor holding the number ``s``, in the default float dtype unless ``dtype`` says otherwise.

    Example::

        >>> torch.scalar_tensor(3)
        tensor(3.)
    """
    if isinstance(s, Tensor):
        s = s.item()
    if not isinstance(s, (builtins.int, builtins.float, builtins.bool, np.number, np.bool_)):
        raise TypeError(f"scalar_tensor(): argument 's' (position 1) must be Number, not {type(s).__name__}")
    return tensor(s, dtype=dtype or _dtype.get_default_dtype(), device=device, requires_grad=requires_grad)


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad: bool | None = None) -> Tensor:
    """``obj`` (a tensor, a numpy array, a number or nested sequences) as a tensor: the same tensor, or one
    sharing its memory, when dtype and device allow and ``copy`` is not True; ``copy=False`` raises where
    a copy would be needed. A tensor that requires grad keeps its graph unless ``requires_grad=False``
    (PyTorch 2.13 warns when that is left unspecified).

    Example::

        >>> x = torch.ones(2)
        >>> torch.asarray(x) is x, torch.asarray([1, 2])
        (True, tensor([1, 2]))
    """
    import warnings
    from .creation import as_tensor
    if isinstance(obj, Tensor) and obj.requires_grad:
        if requires_grad is None:
            warnings.warn("torch.asarray: unspecified requires_grad now defaults to obj.requires_grad instead of "
                          "False. Pass requires_grad=False explicitly to get the old behavior and silence this "
                          "warning.", UserWarning, stacklevel=2)
        elif not requires_grad:
            obj = obj.detach()
    if isinstance(obj, Tensor):
        same = (dtype is None or dtype is obj.dtype) and (device is None or str(device) == str(obj.device)
                                                          or obj.device.type == str(device))
        if copy is False and not same:
            raise ValueError("asarray(): can't satisfy the requested dtype or device without copying; "
                             "pass copy=None or copy=True")
        out = obj.to(device=device or obj.device, dtype=dtype or obj.dtype)
        if copy and out is obj:
            out = out.clone()
    elif copy:
        out = tensor(obj, dtype=dtype, device=device)
    else:
        out = as_tensor(obj, dtype=dtype, device=device)
    if requires_grad and not out.requires_grad:
        out.requires_grad_(True)
    return out


def frombuffer(buffer, *, dtype, count: int = -1, offset: int = 0, requires_grad: bool = False) -> Tensor:
    """A 1-D tensor of ``count`` elements of ``dtype`` read from a Python buffer (``bytes``,
    ``bytearray``, ``memoryview``, ``array``) from byte ``offset``. On ``cpu`` a writable buffer of a
    dtype held as stored (float32, int32, float16, float64) is shared, as in PyTorch; otherwise the
    bytes are copied.

    Example::

        >>> import array
        >>> torch.frombuffer(array.array("i", [1, 2, 3]), dtype=torch.int32)
        tensor([1, 2, 3], dtype=torch.int32)
    """
    from .creation import _shared_cpu
    mv = memoryview(buffer)
    nbytes, item = mv.nbytes, dtype.itemsize
    if offset < 0 or offset > nbytes - 1 and nbytes:
        raise ValueError(f"offset ({offset} bytes) must be non-negative and no greater than buffer length "
                         f"({nbytes} bytes) minus 1")
    if nbytes == 0 or count == 0:
        raise ValueError(f"both buffer length ({nbytes}) and count ({count}) must not be 0")
    if count < 0:
        if (nbytes - offset) % item:
            raise ValueError(f"buffer length ({nbytes - offset} bytes) after offset ({offset} bytes) must be a "
                             f"multiple of element size ({item})")
        count = (nbytes - offset) // item
    elif offset + count * item > nbytes:
        raise ValueError(f"requested buffer length ({count} * {item} bytes) after offset ({offset} bytes) must "
                         f"not be greater than actual buffer length ({nbytes} bytes)")
    arr = np.frombuffer(mv.cast("B") if mv.format != "B" else mv, dtype=dtype.np, count=count, offset=offset)
    shared = _shared_cpu(arr, dtype, None) if arr.flags.writeable else None
    out = shared if shared is not None else _from_host("frombuffer", np.array(arr), dtype, None)
    if requires_grad:
        out.requires_grad_(True)
    return out


def empty_strided(size, stride, *, dtype=None, device=None, requires_grad: bool = False, **kw) -> Tensor:
    """An uninitialized tensor with the given ``size`` and ``stride`` (its storage holds exactly the
    elements those reach).

    Example::

        >>> torch.empty_strided((2, 3), (1, 2)).stride()
        (1, 2)
    """
    size, stride = tuple(size), tuple(stride)
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    span = 1 + builtins.sum((n - 1) * s for n, s in zip(size, stride)) if all(size) else 0
    base = empty(builtins.max(span, 1), dtype=dtype, device=device)
    out = base.as_strided(size, stride, 0).detach()
    out._base = None
    if requires_grad:
        out.requires_grad_(True)
    return out


def empty_permuted(size, physical_layout, *, dtype=None, device=None, requires_grad: bool = False, **kw) -> Tensor:
    """An uninitialized tensor of ``size`` whose dims lie in memory in the order ``physical_layout``
    (outermost first): ``empty_permuted((N, C, H, W), (0, 2, 3, 1))`` is channels-last.

    Example::

        >>> torch.empty_permuted((2, 3, 4), (0, 2, 1)).stride()
        (12, 1, 3)
    """
    size, layout = tuple(size), tuple(physical_layout)
    if len(size) != len(layout):
        raise RuntimeError(f"Number of dimensions in size does not match the length of the physical_layout; "
                           f"i.e. len(size) = {len(size)} is not equal to len(physical_layout) = {len(layout)}")
    if sorted(layout) != list(builtins.range(len(size))):
        raise RuntimeError("Duplicate dim not allowed" if len(set(layout)) != len(layout) else
                           f"Dimension out of range in physical_layout {list(layout)}")
    phys = empty(*[size[d] for d in layout], dtype=dtype, device=device) if size else empty((), dtype=dtype,
                                                                                               device=device)
    inv = [layout.index(i) for i in builtins.range(len(size))]
    out = phys.permute(inv) if size else phys
    out = out.detach()
    out._base = None
    if requires_grad:
        out.requires_grad_(True)
    return out


# ---- windows --------------------------------------------------------------------------------------------
def _window(op: str, n: int, periodic: bool, dtype, device, requires_grad: bool, formula) -> Tensor:
    if n < 0:
        raise RuntimeError(f"{op} requires non-negative window_length, got window_length={n}")
    d = dtype or _dtype.get_default_dtype()
    if not d.is_floating_point:
        raise RuntimeError(f"{op} expects floating point dtypes, got: {d}")
    if n <= 1:
        arr = np.ones(n)
    else:
        m = n + 1 if periodic else n
        arr = formula(np.arange(m, dtype=np.float64), m)[:n]
    return _from_host(op, arr, d, device, requires_grad)


def _hamming(alpha: float, beta: float):
    def f(i, m):  # PyTorch's float32 steps: arange * (2 pi / (N - 1)), cos, * -beta, + alpha
        x = i.astype(np.float32) * np.float32(2 * math.pi / (m - 1))
        return np.cos(x) * np.float32(-beta) + np.float32(alpha)
    return f


def _blackman(i, m):  # PyTorch's float32 steps: 0.08 cos(4x) - 0.5 cos(2x) + 0.42, x = arange * pi / (N - 1)
    x = i.astype(np.float32) * np.float32(math.pi / (m - 1))
    return np.float32(0.08) * np.cos(np.float32(4) * x) - np.float32(0.5) * np.cos(np.float32(2) * x) + np.float32(0.42)


def hann_window(window_length: int, periodic: bool = True, *, dtype=None, device=None,
                requires_grad: bool = False, **kw) -> Tensor:
    """The Hann window ``0.5 - 0.5 cos(2 pi n / (N - 1))``; ``periodic=True`` (the default) gives the
    first ``window_length`` values of the window one longer, as for spectral analysis.

    Example::

        >>> torch.hann_window(4)
        tensor([0.0000, 0.5000, 1.0000, 0.5000])
    """
    return _window("hann_window", window_length, periodic, dtype, device, requires_grad, _hamming(0.5, 0.5))


def hamming_window(window_length: int, periodic: bool = True, alpha: float = 0.54, beta: float = 0.46, *,
                   dtype=None, device=None, requires_grad: bool = False, **kw) -> Tensor:
    """The Hamming window ``alpha - beta cos(2 pi n / (N - 1))`` (``periodic`` as in ``hann_window``).

    Example::

        >>> torch.hamming_window(3, periodic=False)
        tensor([0.0800, 1.0000, 0.0800])
    """
    return _window("hamming_window", window_length, periodic, dtype, device, requires_grad, _hamming(alpha, beta))


def blackman_window(window_length: int, periodic: bool = True, *, dtype=None, device=None,
                    requires_grad: bool = False, **kw) -> Tensor:
    """The Blackman window ``0.42 - 0.5 cos(2 pi n / (N - 1)) + 0.08 cos(4 pi n / (N - 1))``.

    Example::

        >>> torch.blackman_window(3, periodic=False)
        tensor([-2.9802e-08,  1.0000e+00, -2.9802e-08])
    """
    return _window("blackman_window", window_length, periodic, dtype, device, requires_grad,
                   _blackman)


def bartlett_window(window_length: int, periodic: bool = True, *, dtype=None, device=None,
                    requires_grad: bool = False, **kw) -> Tensor:
    """The Bartlett (triangular) window ``1 - |2n / (N - 1) - 1|``.

    Example::

        >>> torch.bartlett_window(5, periodic=False)
        tensor([0.0000, 0.5000, 1.0000, 0.5000, 0.0000])
    """
    return _window("bartlett_window", window_length, periodic, dtype, device, requires_grad,
                   lambda i, m: 1 - np.abs(2 * i / (m - 1) - 1))


def kaiser_window(window_length: int, periodic: bool = True, beta: float = 12.0, *, dtype=None, device=None,
                  requires_grad: bool = False, **kw) -> Tensor:
    """The Kaiser window ``I0(beta sqrt(1 - (2n / (N - 1) - 1)^2)) / I0(beta)`` (``I0``: the modified
    Bessel function of order 0).

    Example::

        >>> torch.kaiser_window(3, periodic=False, beta=0.)
        tensor([1., 1., 1.])
    """
    return _window("kaiser_window", window_length, periodic, dtype, device, requires_grad,
                   lambda i, m: np.i0(beta * np.sqrt(np.clip(1 - (2 * i / (m - 1) - 1) ** 2, 0, None)))
                   / np.i0(beta))


# ---- torch.numel / fill (torch.fill_ and zero_ are ops/memory.py's) -------------------------------------------------------------------
def numel(input: Tensor) -> int:
    """The number of elements of ``input``.

    Example::

        >>> torch.numel(torch.zeros(2, 3))
        6
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"numel(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    return input.numel()


def fill(input: Tensor, value) -> Tensor:
    """A new tensor of ``input``'s shape, dtype and device filled with ``value`` (a number or a 0-d tensor).

    Example::

        >>> torch.fill(torch.zeros(2), 7)
        tensor([7., 7.])
    """
    if isinstance(value, Tensor):
        if value.dim():
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with {value.dim()} "
                               "dimensions.")
        from .creation import ones
        from .elementwise import where
        # where() of an all-true mask: the value's gradient is the sum, input's is zeros, as in PyTorch
        every = ones(input._shape, dtype=_dtype.bool, device=input.device)
        return where(every, value.to(device=input.device, dtype=input.dtype), input)
    return full_like(input, value)


# ---- the public names (bound by borch_webgpu/_bind.py) ------------------------------------------
methods(*[(f.__name__, f) for f in (logspace, range, tril_indices, triu_indices, scalar_tensor, asarray, frombuffer,
                                    empty_strided, empty_permuted, hann_window, hamming_window, blackman_window,
                                    bartlett_window, kaiser_window, numel, fill)], tensor=False)
