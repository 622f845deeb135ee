"""Scans and sorts: cumsum, cumprod, sort, argsort, topk (and msort), forward and backward, on the
cpu device (numpy) and on WebGPU (wgsl/scan.wgsl and wgsl/sort.wgsl through device/gpu_scan_sort.py).

Semantics are PyTorch's (2.13, CPU):
- cumsum/cumprod: integers and bools accumulate in int64 (64 bits on both devices: two 32-bit words
  on WebGPU); an int64 result is numpy's int64 on cpu, and on WebGPU one past int32 moves to the host at
  its first read (or raises ``OverflowError`` when a later GPU op used it first: device/int64_range.py); float32 accumulates in double precision (emulated on WebGPU) and is rounded once.
- sort orders NaN above +inf (last ascending, first descending) and treats -0.0 and +0.0 as equal.
  Every sort here is stable: ``stable=False`` gives the stable result too. PyTorch allows any order
  of ties then (its CPU kernel keeps index order on short rows only), so with ties and
  ``stable=False`` indices may differ from PyTorch's; with ``stable=True`` they are PyTorch's.
- topk is a stable sort cut to k (``sorted=False`` returns them sorted): ties come lowest index first.
  PyTorch's CPU topk orders ties by whatever ``std::nth_element``/``std::partial_sort`` leave, which
  is not specified; values always agree, indices of tied values may differ.
"""
from __future__ import annotations

import builtins
import numbers

import numpy as np

from .. import _dtype, autograd
from ..autograd.graph import needs_grad
from ..device import backend_for
from ..tensor import Tensor, _wrap_dim
from . import _return_types as _rt
from ._registry import OpDef, api, methods, register

__all__ = ["cumsum", "cumprod", "sort", "argsort", "topk", "msort"]

_NAMES = _dtype.SCALAR_NAMES  # PyTorch's ScalarType names (Float, Byte, ...)


# ---- numpy references (the cpu device runs them) ---------------------------------------------------------
def _np_cumsum(a: np.ndarray, axis: int, reverse: bool = False) -> np.ndarray:
    if reverse:
        a = np.flip(a, axis)
    if a.dtype.kind == "f":
        # PyTorch's CPU kernel accumulates float32 in double from +0.0 (so a leading -0.0 becomes +0.0)
        r = (np.cumsum(a, axis=axis, dtype=np.float64) + 0.0).astype(a.dtype)
    else:
        r = np.cumsum(a.astype(np.int64), axis=axis)
    return np.flip(r, axis) if reverse else r


def _np_cumprod(a: np.ndarray, axis: int) -> np.ndarray:
    if a.dtype.kind == "f":
        return np.cumprod(a, axis=axis, dtype=np.float64).astype(a.dtype)
    return np.cumprod(a.astype(np.int64), axis=axis)


def _np_keys(a: np.ndarray, descending: bool) -> np.ndarray:
    """u32 keys whose unsigned order is PyTorch's order of the values (what sort.wgsl computes)."""
    if a.dtype.kind == "f":
        b = a.astype(np.float32).view(np.uint32)
        m = b & np.uint32(0x7FFFFFFF)
        k = np.where(b >> np.uint32(31) != 0, ~b, b | np.uint32(0x80000000))
        k = np.where(m == 0, np.uint32(0x80000000), k)           # -0.0 ties with +0.0
        k = np.where(m > 0x7F800000, np.uint32(0xFFFFFFFF), k)   # NaN above +inf
    elif a.dtype.kind in "bu":
        k = a.astype(np.uint32)
    else:  # int64 past int32 (the cpu device's numpy int64) orders by 64-bit keys
        k = (a.astype(np.int64).view(np.uint64) ^ np.uint64(1 << 63))
        return ~k if descending else k
    k = k.astype(np.uint32)
    return ~k if descending else k


def _np_argsort(a: np.ndarray, axis: int, descending: bool = False) -> np.ndarray:
    return np.argsort(_np_keys(a, descending), axis=axis, kind="stable")


def _np_sort(a: np.ndarray, axis: int, descending: bool = False):
    idx = _np_argsort(a, axis, descending)
    return np.take_along_axis(a, idx, axis=axis), idx


def _np_topk(a: np.ndarray, k: int, axis: int, largest: bool = True):
    idx = np.take(_np_argsort(a, axis, largest), np.arange(k), axis=axis)
    return np.take_along_axis(a, idx, axis=axis), idx


# Tolerances against PyTorch (float32):
# cumsum: the prefix is accumulated in (emulated) double and rounded once, as PyTorch's CPU kernel does,
#   so results agree to 1 ulp (2^-23 relative); atol covers prefixes that cancel to near zero, where
#   summation order changes the double-precision error, about 2^-47 * sum|x| (below 1e-6 for
#   sum|x| < 1e7).
# cumprod: float32 products carried with an exact (Dekker) error term, double-like, rounded once: 1 ulp;
#   atol is the smallest normal float, for products that reach the subnormal range (GPUs may flush them).
#   Its gradient is a reverse cumsum divided by the input (WGSL division may be 2.5 ulp off) plus, for
#   rows with zeros, sums taken in another order than PyTorch's: grad_tol.
# sort, argsort, topk: values are moved, never computed; indices of a stable sort are unique: exact.
CUMSUM = register(OpDef("cumsum", "scan", ("scan.wgsl", "sum_f"), _np_cumsum, dtype_rule="scan", tol=(2.5e-7, 1e-6),
                        doc="inclusive prefix sum along dim; gradient: reverse prefix sum",
                        extra={"int_block": "sum_i", "signed_zero": True, "grad_tol": (2.5e-7, 1e-6)}))
CUMPROD = register(OpDef("cumprod", "scan", ("scan.wgsl", "prod_f"), _np_cumprod, dtype_rule="scan",
                         tol=(2.5e-7, 1.2e-38), doc="inclusive prefix product along dim; zero-safe gradient",
                         extra={"int_block": "prod_i", "signed_zero": True, "grad_tol": (2e-6, 1e-6)}))
SORT = register(OpDef("sort", "sort", ("sort.wgsl", "sort"), _np_sort, dtype_rule="same", tol=(0, 0),
                      doc="stable sort along dim: (values, indices)", extra={"signed_zero": True}))
ARGSORT = register(OpDef("argsort", "sort", ("sort.wgsl", "sort"), _np_argsort, dtype_rule="same", tol=(0, 0),
                         doc="the indices of a stable sort along dim"))
TOPK = register(OpDef("topk", "sort", ("sort.wgsl", "sort"), _np_topk, dtype_rule="same", tol=(0, 0),
                      doc="the k largest (or smallest) along dim: a stable sort cut to k",
                      extra={"signed_zero": True}))


# ---- argument checks ---------------------------------------------------------------------------------------
def _require(op: str, x) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}(): argument 'input' (position 1) must be Tensor, not {type(x).__name__}")
    return x


def _int_arg(op: str, name: str, pos: int, v) -> int:
    if isinstance(v, Tensor) and v.numel() == 1 and not v.dtype.is_floating_point:
        return builtins.int(v.item())
    if isinstance(v, builtins.bool) or not isinstance(v, numbers.Integral):
        raise TypeError(f"{op}(): argument '{name}' (position {pos}) must be int, not {type(v).__name__}")
    return builtins.int(v)


def _dim(op: str, x: Tensor, dim) -> int:
    return _wrap_dim(_int_arg(op, "dim", 2, dim), x.dim(), op)


def _no_half_on_gpu(op: str, x: Tensor) -> None:
    if x._device.type == "webgpu" and x.dtype.name == "float16":
        raise TypeError(f"{op}: float16 is not supported by the WebGPU scan and sort kernels; use .float()")


# ---- kernels (no autograd) --------------------------------------------------------------------------------
def _from_np(arr: np.ndarray, shape, dtype, device) -> Tensor:
    storage = backend_for(device).from_numpy(np.asarray(arr).astype(dtype.storage_np, copy=False), dtype)
    return Tensor._make(storage, shape, dtype, device)


def _as_shape(t: Tensor, shape) -> Tensor:
    """A one-element tensor seen as 0-d or 1-d (no autograd; the ops record their own nodes)."""
    return Tensor._make(t._storage, shape, t.dtype, t.device, (1,) * len(shape), t._offset)


def _scan(op: OpDef, x: Tensor, d: int, C, R, reverse: bool = False) -> Tensor:
    """x scanned along d (computing in C, stored as R); 0-d tensors scan as one element."""
    if x.dim() == 0:
        return _as_shape(_scan(op, _as_shape(x, (1,)), 0, C, R, reverse), ())
    if x._device.type == "cpu":
        a = x._backend().view(x)
        with np.errstate(all="ignore"):
            r = op.ref(a, d, reverse) if reverse else op.ref(a, d)
        return _from_np(r, x._shape, R, x.device)
    from ..device import gpu_scan_sort
    _no_half_on_gpu(op.name, x)
    block = op.wgsl[1] if C.is_floating_point else op.extra["int_block"]
    return Tensor._make(gpu_scan_sort.scan(x, d, block, C, R, reverse), x._shape, R, x.device)


def _sort_kernel(op: str, x: Tensor, d: int, descending: bool, k: int) -> tuple[Tensor, Tensor]:
    """(values, int64 indices) of the first k positions of the stable sort of x along d."""
    if x.dim() == 0:  # PyTorch gives the value and index 0 for k = 0 as well
        v, i = _sort_kernel(op, _as_shape(x, (1,)), 0, descending, 1)
        return _as_shape(v, ()), _as_shape(i, ())
    shape = x._shape[:d] + (k,) + x._shape[d + 1:]
    if x._device.type == "cpu":
        a = x._backend().view(x)
        idx = np.take(_np_argsort(a, d, descending), np.arange(k), axis=d)
        vals = np.take_along_axis(a, idx, axis=d)
        return _from_np(vals, shape, x.dtype, x.device), _from_np(idx, shape, _dtype.int64, x.device)
    from ..device import gpu_scan_sort
    _no_half_on_gpu(op, x)
    vs, ix = gpu_scan_sort.sort(x, d, descending, k)
    return Tensor._make(vs, shape, x.dtype, x.device), Tensor._make(ix, shape, _dtype.int64, x.device)


def _take(src: Tensor, idx: Tensor, d: int) -> Tensor:
    """out[..., j, ...] = src[..., idx[..., j], ...] along d (differentiable in src)."""
    if src._device.type == "cpu":
        a = src._backend().view(src)
        out = _from_np(np.take_along_axis(a, idx._backend().view(idx).astype(np.int64), axis=d), idx._shape,
                       src.dtype, src.device)
    else:
        from ..device import gpu_scan_sort
        out = Tensor._make(gpu_scan_sort.gather(src, idx, d), idx._shape, src.dtype, src.device)
    n = src._shape[d]
    autograd.record("GatherBackward0", [src], [out], lambda g: (_put(g, idx, d, n),))
    return out


def _put(src: Tensor, idx: Tensor, d: int, n: int) -> Tensor:
    """Zeros with dim d of size n and out[..., idx[..., j], ...] = src[..., j, ...] (differentiable in src);
    the indices of each row are distinct."""
    shape = idx._shape[:d] + (n,) + idx._shape[d + 1:]
    if src._device.type == "cpu":
        z = np.zeros(shape, dtype=src.dtype.storage_np)
        if idx.numel():
            np.put_along_axis(z, idx._backend().view(idx).astype(np.int64), src._backend().view(src), axis=d)
        out = _from_np(z, shape, src.dtype, src.device)
    else:
        from ..device import gpu_scan_sort
        from .creation import zeros
        out = zeros(shape, dtype=src.dtype, device=src.device)
        gpu_scan_sort.scatter(src, idx, d, n, out._storage)
    autograd.record("ScatterBackward0", [src], [out], lambda g: (_take(g, idx, d),))
    return out


# ---- cumsum / cumprod --------------------------------------------------------------------------------------
def _scan_dtypes(op: str, x: Tensor, dtype):
    """(tensor to scan, compute dtype, result dtype) for PyTorch's rules: ints and bools give int64."""
    out_t = dtype if dtype is not None else (x.dtype if x.dtype.is_floating_point else _dtype.int64)
    _dtype.check_supported(out_t, op)
    if out_t.name == "bool":
        raise NotImplementedError(f"\"{op}_out_cpu\" not implemented for 'Bool'")
    if not out_t.is_floating_point and needs_grad(x):
        raise RuntimeError(f"Autograd not support dtype: {_NAMES[out_t.name]}")
    if (out_t.is_floating_point or x.dtype.is_floating_point) and out_t is not x.dtype:
        x = x.to(out_t)
    return x, (out_t if out_t.is_floating_point else _dtype.int32), out_t


def _rcumsum(g: Tensor, d: int) -> Tensor:
    """Sum of g from each position to the end of its row along d (differentiable)."""
    out = _scan(CUMSUM, g, d, g.dtype, g.dtype, reverse=True)
    autograd.record("CumsumBackward0", [g], [out], lambda gg: (cumsum(gg, d),))
    return out


def _cumsum_back(g: Tensor, x: Tensor, d: int) -> Tensor:
    if x.numel() <= 1:
        return g
    return _rcumsum(g, d)


def cumsum(input: Tensor, dim, *, dtype=None, out=None) -> Tensor:
    """Cumulative sum along ``dim``; ints and bools sum to int64, ``dtype`` casts the input first.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.cumsum(torch.tensor([1, 2, 3]), dim=0).tolist()
        [1, 3, 6]
    """
    x = _require("cumsum", input)
    d = _dim("cumsum", x, dim)
    if x.dtype.is_complex and dtype is None:
        from . import _complex_more
        return _out(_complex_more.cumsum(x, d), out)
    x, C, R = _scan_dtypes("cumsum", x, dtype)
    r = _scan(CUMSUM, x, d, C, R)
    if R.is_floating_point:
        autograd.record("CumsumBackward0", [x], [r], lambda g: (_cumsum_back(g, x, d),))
    return _out(r, out)


def _cumprod_back(g: Tensor, x: Tensor, out: Tensor, d: int) -> Tensor:
    """PyTorch's zero-safe O(n) cumprod gradient (FunctionsManual.cpp cumprod_backward), with masks.

    Before the first zero of a row: reverse cumsum of g * out, over x. At the first zero z1: the sum over
    j in [z1, z2) of g_j * prod(x[:z1]) * prod(x[z1+1:j+1]). After it: 0. Rows without zeros take the
    first rule everywhere, so no device-to-host check is needed to pick a path. Written with differentiable
    ops, so create_graph works; for rows with zeros its derivative is not cumprod's second derivative
    (PyTorch switches to an O(n^2) formula there).
    """
    from .creation import arange
    from .elementwise import where
    from .reduce import sum as _sum
    if x.numel() <= 1 or x._shape[d] == 1:
        return g
    n = x._shape[d]
    w = out * g
    cz = cumsum(x == 0, d)                       # zeros seen up to and including each position
    before = cz == 0
    res = where(before, _rcumsum(where(before, w, 0.0), d) / where(before, x, 1.0), 0.0)
    shape1 = [1] * x.dim()
    shape1[d] = n
    pos = arange(n, device=x.device).reshape(shape1)
    nb = _sum(before, d, keepdim=True)           # z1, or n in rows without a zero
    first = pos == nb
    mid = (cz == 1) & ~first                     # (z1, z2)
    s = _sum(cumprod(where(mid, x, 1.0), d) * where(cz == 1, g, 0.0), d, keepdim=True)
    prev = where(nb == 0, 1.0, _sum(where(pos == nb - 1, out, 0.0), d, keepdim=True))   # out[z1 - 1]
    return where(first, s * prev, res)


def cumprod(input: Tensor, dim, *, dtype=None, out=None) -> Tensor:
    """Cumulative product along ``dim``; ints and bools multiply in int64, ``dtype`` casts the input first.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.cumprod(torch.tensor([1., 2., 3.]), dim=0).tolist()
        [1.0, 2.0, 6.0]
    """
    if isinstance(input, Tensor) and input.dtype.is_complex and dtype is None:
        from . import _complex_more
        return _out(_complex_more.cumprod(input, _dim("cumprod", input, dim)), out)
    x = _require("cumprod", input)
    d = _dim("cumprod", x, dim)
    x, C, R = _scan_dtypes("cumprod", x, dtype)
    r = _scan(CUMPROD, x, d, C, R)
    if R.is_floating_point:
        autograd.record("CumprodBackward0", [x], [r], lambda g: (_cumprod_back(g, x, r, d),), [x, r])
    return _out(r, out)


def _out(r: Tensor, out) -> Tensor:
    if out is None:
        return r
    from .elementwise import _out as ew_out
    return ew_out(r, out)


def _cum_inplace(name: str, fn, self: Tensor, dim, dtype) -> Tensor:
    from .memory import inplace
    if self.dtype.name == "bool":
        raise NotImplementedError(f"\"{name[:-1]}_out_cpu\" not implemented for 'Bool'")
    if dtype is not None and dtype is not self.dtype:
        raise RuntimeError(f"Bad in-place call: input tensor dtype {_NAMES[self.dtype.name].lower()} and output "
                           f"tensor dtype {_NAMES[dtype.name].lower()} should match")
    return inplace(name, lambda s: fn(s, dim), self)


# ---- sort / argsort / topk ---------------------------------------------------------------------------------
def sort(input: Tensor, dim=-1, descending: bool = False, *, stable: bool | None = False):
    """Sort along ``dim``: a namedtuple ``(values, indices)``. NaN sorts above +inf; the sort is always
    stable (equal values keep their order), whatever ``stable`` says.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.sort(torch.tensor([3., 1., 2.])).indices.tolist()
        [1, 2, 0]
    """
    from ._complex_core import refuse_complex
    refuse_complex(input, RuntimeError, ' Sort does not support complex dtypes on CPU')   # an ordering: no meaning for complex values
    x = _require("sort", input)
    d = _dim("sort", x, dim)
    n = x._shape[d] if x.dim() else 1
    values, indices = _sort_kernel("sort", x, d, builtins.bool(descending), n)
    if x.dtype.is_floating_point:
        autograd.record("SortBackward0", [x], [values], lambda g: (_select_back(g, x, indices, d),), [indices])
    return _rt.sort((values, indices))


def _select_back(g: Tensor, x: Tensor, indices: Tensor, d: int) -> Tensor:
    if x.dim() == 0:
        return g
    return _put(g, indices, d, x._shape[d])


def argsort(input: Tensor, dim=-1, descending: bool = False, *, stable: bool = False) -> Tensor:
    """The indices that sort ``input`` along ``dim`` (a stable sort; NaN above +inf).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.argsort(torch.tensor([2, 0, 1]), descending=True).tolist()
        [0, 2, 1]
    """
    from ._complex_core import refuse_complex
    refuse_complex(input, RuntimeError, ' Sort does not support complex dtypes on CPU')   # an ordering: no meaning for complex values
    x = _require("argsort", input)
    d = _dim("argsort", x, dim)
    n = x._shape[d] if x.dim() else 1
    return _sort_kernel("argsort", x, d, builtins.bool(descending), n)[1]


def topk(input: Tensor, k, dim=-1, largest: bool = True, sorted: bool = True):  # noqa: A002 - torch's name
    """The ``k`` largest (``largest=False``: smallest) values along ``dim`` and their indices, sorted;
    NaN counts as the largest value; ties come lowest index first.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.topk(torch.tensor([1., 5., 3.]), 2).values.tolist()
        [5.0, 3.0]
    """
    from ._complex_core import refuse_complex
    refuse_complex(input, RuntimeError, ' topk does not support complex dtypes on CPU')   # an ordering: no meaning for complex values
    x = _require("topk", input)
    k = _int_arg("topk", "k", 2, k)
    d = _dim("topk", x, dim)
    n = x._shape[d] if x.dim() else 1
    if not 0 <= k <= n:
        raise RuntimeError("selected index k out of range")
    # a full stable sort whose first k positions are written out (no partial selection kernel)
    values, indices = _sort_kernel("topk", x, d, builtins.bool(largest), k)
    if x.dtype.is_floating_point:
        autograd.record("TopkBackward0", [x], [values], lambda g: (_select_back(g, x, indices, d),), [indices])
    return _rt.topk((values, indices))


def msort(input: Tensor) -> Tensor:
    """``sort(input, dim=0).values``."""
    from ._complex_core import refuse_complex
    refuse_complex(input, RuntimeError, ' Sort does not support complex dtypes on CPU')   # an ordering: no meaning for complex values
    return sort(_require("msort", input), 0).values


# ---- the public names (bound by borch_webgpu/_bind.py) ------------------------------------------
methods(("cumsum", cumsum), ("cumprod", cumprod), ("sort", sort), ("argsort", argsort), ("topk", topk),
        ("msort", msort))
api("cumsum_", method=lambda self, dim, *, dtype=None: _cum_inplace("cumsum_", cumsum, self, dim, dtype))
api("cumprod_", method=lambda self, dim, *, dtype=None: _cum_inplace("cumprod_", cumprod, self, dim, dtype))
