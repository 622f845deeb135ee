"""Pooling: max_pool1d/2d (with indices), avg_pool1d/2d, adaptive_avg_pool1d/2d and
adaptive_max_pool2d, forward and backward, with PyTorch's arguments, output sizes (ceil_mode,
count_include_pad, divisor_override, None in adaptive output sizes) and error messages.

Every op is one of four differentiable primitives over a :class:`PoolGeometry` on (N, C, H, W)
(1-D pooling has H = 1): max (values and argmax indices), its backward, average, its backward.
Semantics are PyTorch's CPU kernels: max propagates NaN (the last NaN of the window in scan order
wins) and breaks ties by the first maximum; an all -inf window points at its first element. The
max gradient goes to the argmax position; the average gradient is dy / divisor spread over the
window. The backward passes add their terms in PyTorch's order (outputs ascending), so they sum the
same floats in the same order. WebGPU: wgsl/pool.wgsl through device/gpu_pool.py; cpu: the numpy
references in ops/_pool_kernels.py, which also holds the op records. This module holds the public
ops and PyTorch's argument checks.
"""
from __future__ import annotations

import builtins
import numbers

from .. import _dtype
from ..device.gpu_pool import PoolGeometry
from ..tensor import Tensor
from ._pool_kernels import MAX_POOL1D, MAX_POOL2D, _avg_pool, _max_pool
from ._registry import OpDef

__all__ = ["max_pool1d", "max_pool2d", "avg_pool1d", "avg_pool2d", "adaptive_avg_pool1d", "adaptive_avg_pool2d",
           "adaptive_max_pool2d"]

_TYPES = _dtype.SCALAR_NAMES  # PyTorch's ScalarType names (Float, Byte, ...)


# ---- argument handling (PyTorch's checks, order and messages) ---------------------------------------
def _is_int(v) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, builtins.bool)


def _ints(op: str, name: str, pos: int, v) -> list[int]:
    if isinstance(v, Tensor) and v.numel() == 1 and not v.dtype.is_floating_point:
        v = builtins.int(v.item())
    if _is_int(v):
        return [builtins.int(v)]
    if isinstance(v, (tuple, list)) and all(_is_int(e) for e in v):
        return [builtins.int(e) for e in v]
    raise TypeError(f"{op}(): argument '{name}' (position {pos}) must be tuple of ints, not {type(v).__name__}")


def _require(op: str, x) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}(): argument 'input' (position 1) must be Tensor, not {type(x).__name__}")
    return x


def _two(vals: list[int], message: str, allow_empty: bool = False) -> list[int]:
    if len(vals) == 1:
        return vals * 2
    if len(vals) == 2 or (allow_empty and not vals):
        return vals
    raise RuntimeError(message)


def _out_size(size: int, k: int, pad: int, stride: int, dil: int, ceil_mode: bool) -> int:
    """PyTorch's pooling_output_shape, with its checks."""
    if stride == 0:
        raise RuntimeError("stride should not be zero")
    if pad < 0:
        raise RuntimeError(f"pad must be non-negative, but got pad: {pad}")
    if pad > ((k - 1) * dil + 1) // 2:
        raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={pad}, "
                           f"kernel_size={k} and dilation={dil}")
    out = (size + 2 * pad - dil * (k - 1) - 1 + (stride - 1 if ceil_mode else 0)) // stride + 1
    if ceil_mode and (out - 1) * stride >= size + pad:
        out -= 1
    return out


def _shape_check(x: Tensor, k, s, p, d, oh: int, ow: int) -> None:
    """PyTorch's pool2d_shape_check on a 3-D or 4-D input."""
    if k[0] <= 0 or k[1] <= 0:
        raise RuntimeError(f"kernel size should be greater than zero, but got kH: {k[0]} kW: {k[1]}")
    if s[0] <= 0 or s[1] <= 0:
        raise RuntimeError(f"stride should be greater than zero, but got dH: {s[0]} dW: {s[1]}")
    if d[0] <= 0 or d[1] <= 0:
        raise RuntimeError(f"dilation should be greater than zero, but got dilationH: {d[0]} dilationW: {d[1]}")
    sh = x._shape
    ok = x.dim() in (3, 4) and sh[-3] != 0 and sh[-2] != 0 and sh[-1] != 0 and (x.dim() == 4 or sh[0] != 0)
    if not ok:
        raise RuntimeError(f"Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but "
                           f"got:{list(sh)}")
    if k[1] // 2 < p[1] or k[0] // 2 < p[0]:
        raise RuntimeError(f"pad should be smaller than or equal to half of kernel size, but got padW = {p[1]}, "
                           f"padH = {p[0]}, kW = {k[1]}, kH = {k[0]}")
    if oh < 1 or ow < 1:
        raise RuntimeError(f"Given input size: ({sh[-3]}x{sh[-2]}x{sh[-1]}). Calculated output size: "
                           f"({sh[-3]}x{oh}x{ow}). Output size is too small")


def _as4d(x: Tensor) -> tuple[Tensor, bool]:
    return (x, True) if x.dim() == 4 else (x.unsqueeze(0), False)


def _finish(t: Tensor, batched: bool) -> Tensor:
    return t if batched else t.squeeze(0)


def _no_bool(op: str, x: Tensor) -> None:
    if x.dtype.name == "bool":
        raise NotImplementedError(f"\"{op}\" not implemented for 'Bool'")


def _float_only(op: str, x: Tensor) -> None:
    if not x.dtype.is_floating_point:
        raise NotImplementedError(f"\"{op}\" not implemented for '{_TYPES[x.dtype.name]}'")


def _max_pool2d_impl(x: Tensor, k, s, p, d, ceil_mode: bool, name: str, op: OpDef):
    """(values, indices) of 2-D max pooling of a 3-D or 4-D x; k, s, p, d already pairs."""
    oh = _out_size(x._shape[-2], k[0], p[0], s[0], d[0], ceil_mode)
    ow = _out_size(x._shape[-1], k[1], p[1], s[1], d[1], ceil_mode)
    _shape_check(x, k, s, p, d, oh, ow)
    _no_bool(op.name, x)
    x4, batched = _as4d(x)
    N, C, H, W = x4._shape
    g = PoolGeometry(N, C, H, W, oh, ow, k[0], k[1], s[0], s[1], p[0], p[1], d[0], d[1])
    out, idx = _max_pool(x4, g, name)
    return _finish(out, batched), _finish(idx, batched)


# ---- the ops -------------------------------------------------------------------------------------------
def max_pool2d(input: Tensor, kernel_size, stride=None, padding=0, dilation=1, ceil_mode: bool = False,
               return_indices: bool = False):
    """2-D max pooling over (N, C, H, W) or (C, H, W) (``torch.nn.functional.max_pool2d``).

    Args:
        kernel_size, stride (default: kernel_size), padding (implicit -inf), dilation: an int or a pair.
        ceil_mode: round the output size up (a last window may start inside the right padding).
        return_indices: also return the argmax positions (flat indices into each H*W plane, int64).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.max_pool2d(torch.arange(16.).reshape(1, 1, 4, 4), 2).tolist()
        [[[[5.0, 7.0], [13.0, 15.0]]]]
    """
    x = _require("max_pool2d", input)
    k = _two(_ints("max_pool2d", "kernel_size", 2, kernel_size),
             "max_pool2d: kernel_size must either be a single int, or a tuple of two ints")
    s = _two(_ints("max_pool2d", "stride", 3, stride) if stride is not None else [],
             "max_pool2d: stride must either be omitted, a single int, or a tuple of two ints", allow_empty=True) or k
    p = _two(_ints("max_pool2d", "padding", 4, padding),
             "max_pool2d: padding must either be a single int, or a tuple of two ints")
    d = _two(_ints("max_pool2d", "dilation", 5, dilation),
             "max_pool2d: dilation must be either a single int, or a tuple of two ints")
    if x.dim() not in (3, 4):
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    out, idx = _max_pool2d_impl(x, k, s, p, d, ceil_mode, "MaxPool2DWithIndicesBackward0", MAX_POOL2D)
    return (out, idx) if return_indices else out


def max_pool1d(input: Tensor, kernel_size, stride=None, padding=0, dilation=1, ceil_mode: bool = False,
               return_indices: bool = False):
    """1-D max pooling over (N, C, L) or (C, L) (``torch.nn.functional.max_pool1d``); indices index L.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.max_pool1d(torch.tensor([[1., 3., 2., 5.]]), 2, return_indices=True)[1].tolist()
        [[1, 3]]
    """
    x = _require("max_pool1d", input)
    k = _ints("max_pool1d", "kernel_size", 2, kernel_size)
    s = _ints("max_pool1d", "stride", 3, stride) if stride is not None else []
    p = _ints("max_pool1d", "padding", 4, padding)
    d = _ints("max_pool1d", "dilation", 5, dilation)
    if x.dim() not in (2, 3) or (x._shape[-1] == 0 or x._shape[-2] == 0 or (x.dim() == 3 and x._shape[0] == 0
                                                                             and False)):
        raise RuntimeError(f"max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for "
                           f"input, but got:{list(x._shape)}")
    if len(k) != 1:
        raise RuntimeError(f"max_pool1d() kernel_size must be an int, list of ints or tuple of ints of size 1 but got "
                           f"size {len(k)}")
    if len(s) > 1:
        raise RuntimeError(f"max_pool1d() stride must be None, an int, list of ints, or tuple of ints of size 1 but "
                           f"got size {len(s)}")
    if len(p) != 1:
        raise RuntimeError(f"max_pool1d() padding must be an int, list of ints, or tuple of ints of size 1 but got "
                           f"size {len(p)}")
    if len(d) != 1:
        raise RuntimeError(f"max_pool1d() dilation must be an int, list of ints or tuple of ints of size 1 but got "
                           f"size {len(d)}")
    s = s or k
    for name, v, ok in (("kernel_size", k[0], k[0] > 0), ("stride", s[0], s[0] > 0)):
        if not ok:
            raise RuntimeError(f"max_pool1d() {name} must be greater than zero, but got {v}")
    if p[0] < 0:
        raise RuntimeError(f"max_pool1d() padding must be non-negative, but got {p[0]}")
    if p[0] > k[0] // 2:
        raise RuntimeError(f"max_pool1d() padding should be at most half of kernel size, but got padding={p[0]} and "
                           f"kernel_size={k[0]}")
    if d[0] <= 0:
        raise RuntimeError(f"max_pool1d() dilation must be greater than zero, but got {d[0]}")
    ol = _out_size(x._shape[-1], k[0], p[0], s[0], d[0], ceil_mode)
    if ol <= 0:
        raise RuntimeError(f"max_pool1d() Invalid computed output size: {ol}")
    if not x.dtype.is_floating_point:
        raise NotImplementedError(f"\"max_pool1d_impl\" not implemented for '{_TYPES[x.dtype.name]}'")
    out, idx = _max_pool2d_impl(x.unsqueeze(-2), [1, k[0]], [1, s[0]], [0, p[0]], [1, d[0]], ceil_mode,
                                "MaxPool1DWithIndicesBackward0" if return_indices else "MaxPool2DWithIndicesBackward0",
                                MAX_POOL1D)
    out, idx = out.squeeze(-2), idx.squeeze(-2)
    return (out, idx) if return_indices else out


def _avg_pool2d_impl(x: Tensor, k, s, p, ceil_mode: bool, count_include_pad: bool, divisor_override,
                     op: str) -> Tensor:
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    if x.dim() < 3:
        n = builtins.max(x.dim(), 1)
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got -3)")
    oh = _out_size(x._shape[-2], k[0], p[0], s[0], 1, ceil_mode)
    ow = _out_size(x._shape[-1], k[1], p[1], s[1], 1, ceil_mode)
    _shape_check(x, k, s, p, [1, 1], oh, ow)
    if x.dtype.name != "int64":  # PyTorch's CPU kernel takes Long (not Int, not Bool)
        _float_only(op, x)
    x4, batched = _as4d(x)
    N, C, H, W = x4._shape
    g = PoolGeometry(N, C, H, W, oh, ow, k[0], k[1], s[0], s[1], p[0], p[1], 1, 1,
                     count_include_pad=builtins.bool(count_include_pad),
                     divisor=builtins.int(divisor_override) if divisor_override is not None else 0)
    return _finish(_avg_pool(x4, g, "AvgPool2DBackward0"), batched)


def avg_pool2d(input: Tensor, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override=None) -> Tensor:
    """2-D average pooling over (N, C, H, W) or (C, H, W) (``torch.nn.functional.avg_pool2d``).

    Args:
        kernel_size, stride (default: kernel_size), padding (zeros): an int or a pair.
        ceil_mode: round the output size up.
        count_include_pad: divide by the window size including the padding (else by the real elements).
        divisor_override: divide by this instead.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.avg_pool2d(torch.arange(16.).reshape(1, 1, 4, 4), 2).tolist()
        [[[[2.5, 4.5], [10.5, 12.5]]]]
    """
    x = _require("avg_pool2d", input)
    k = _two(_ints("avg_pool2d", "kernel_size", 2, kernel_size),
             "avg_pool2d: kernel_size must either be a single int, or a tuple of two ints")
    s = _two(_ints("avg_pool2d", "stride", 3, stride) if stride is not None else [],
             "avg_pool2d: stride must either be omitted, a single int, or a tuple of two ints", allow_empty=True) or k
    p = _two(_ints("avg_pool2d", "padding", 4, padding),
             "avg_pool2d: padding must either be a single int, or a tuple of two ints")
    return _avg_pool2d_impl(x, k, s, p, ceil_mode, count_include_pad, divisor_override, "avg_pool2d")


def _dim_range(op: str, x: Tensor) -> None:
    if x.dim() not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {x.dim()}-dimensional tensor for argument #1 'self' "
                           f"(while checking arguments for {op})")


def _one(op: str, name: str, vals: list[int]) -> list[int]:
    if len(vals) != 1:
        raise RuntimeError(f"{op}() argument '{name}' should contain one int (got {len(vals)})")
    return vals


def avg_pool1d(input: Tensor, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
               count_include_pad: bool = True) -> Tensor:
    """1-D average pooling over (N, C, L) or (C, L) (``torch.nn.functional.avg_pool1d``).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.avg_pool1d(torch.tensor([[1., 3., 2., 6.]]), 2).tolist()
        [[2.0, 4.0]]
    """
    x = _require("avg_pool1d", input)
    _dim_range("avg_pool1d", x)
    k = _one("avg_pool1d", "kernel_size", _ints("avg_pool1d", "kernel_size", 2, kernel_size))
    s = _one("avg_pool1d", "stride", _ints("avg_pool1d", "stride", 3, stride)) if stride is not None else k
    p = _one("avg_pool1d", "padding", _ints("avg_pool1d", "padding", 4, padding))
    out = _avg_pool2d_impl(x.unsqueeze(-2), [1, k[0]], [1, s[0]], [0, p[0]], ceil_mode, count_include_pad, None,
                           "avg_pool2d")
    return out.squeeze(-2)


def _output_size(x: Tensor, output_size, n: int) -> list[int]:
    """Python-level handling of torch's adaptive output_size: an int, or a sequence whose None
    entries take the input's size."""
    if isinstance(output_size, (tuple, list)):
        if x.dim() <= len(output_size):
            raise ValueError(f"Input dimension should be at least {len(output_size) + 1}")
        dims = x._shape[-len(output_size):]
        out = [d if v is None else v for v, d in zip(output_size, dims)]
    elif output_size is None:
        raise TypeError("object of type 'NoneType' has no len()")
    else:
        out = [output_size]
    for v in out:
        if not _is_int(v):
            raise TypeError(f"adaptive pooling: output_size must be int or tuple of ints, got {type(v).__name__}")
    return [builtins.int(v) for v in out] * (n if len(out) == 1 else 1)


def _adaptive_input(op: str, x: Tensor, sep: str = "") -> tuple[Tensor, bool]:
    if x.dim() not in (3, 4):
        raise RuntimeError(f"{op}(): Expected 3D or 4D tensor, but got{sep} {list(x._shape)}")
    for i in range(1, x.dim()):
        if x._shape[i] == 0:
            raise RuntimeError(f"{op}(): Expected input to have non-zero size for non-batch dimensions, but input "
                               f"has sizes {list(x._shape)} with dimension {i} being empty")
    return _as4d(x)


def adaptive_avg_pool2d(input: Tensor, output_size) -> Tensor:
    """Average over PyTorch's adaptive windows, to (N, C, *output_size) (``F.adaptive_avg_pool2d``).

    output_size: an int or a pair; None keeps that input size. Window o of an input of size I and
    an output of size O covers [floor(o*I/O), ceil((o+1)*I/O)).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.adaptive_avg_pool2d(torch.ones(2, 3, 7, 5), 1).shape
        torch.Size([2, 3, 1, 1])
    """
    x = _require("adaptive_avg_pool2d", input)
    out = _output_size(x, output_size, 2)
    return _adaptive_avg(x, out)


def _adaptive_avg(x: Tensor, out: list[int]) -> Tensor:
    if len(out) != 2:
        raise RuntimeError("adaptive_avg_pool2d: output_size must be 2")
    if out[0] < 0 or out[1] < 0:
        raise RuntimeError(f"adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but "
                           f"received {{{out[0]}, {out[1]}}}")
    x4, batched = _adaptive_input("adaptive_avg_pool2d", x)
    _float_only("adaptive_avg_pool2d", x)
    N, C, H, W = x4._shape
    g = PoolGeometry(N, C, H, W, out[0], out[1], adaptive=True)
    return _finish(_avg_pool(x4, g, "AdaptiveAvgPool2DBackward0"), batched)


def adaptive_avg_pool1d(input: Tensor, output_size) -> Tensor:
    """Average over PyTorch's adaptive windows along L: (N, C, L) -> (N, C, output_size).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.adaptive_avg_pool1d(torch.tensor([[1., 2., 3., 4., 5.]]), 2).tolist()
        [[2.0, 4.0]]
    """
    x = _require("adaptive_avg_pool1d", input)
    _dim_range("adaptive_avg_pool1d", x)
    o = _one("adaptive_avg_pool1d", "output_size", _ints("adaptive_avg_pool1d", "output_size", 2, output_size))
    return _adaptive_avg(x.unsqueeze(-2), [1, o[0]]).squeeze(-2)


def adaptive_max_pool2d(input: Tensor, output_size, return_indices: bool = False):
    """Max over PyTorch's adaptive windows (``F.adaptive_max_pool2d``); indices as in max_pool2d.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.adaptive_max_pool2d(torch.arange(16.).reshape(1, 4, 4), 2).tolist()
        [[[5.0, 7.0], [13.0, 15.0]]]
    """
    x = _require("adaptive_max_pool2d", input)
    out = _output_size(x, output_size, 2)
    x4, batched = _adaptive_input("adaptive_max_pool2d", x, sep=":")
    if len(out) != 2:
        raise RuntimeError("adaptive_max_pool2d(): internal error: output_size.size() must be 2")
    if out[0] < 0 or out[1] < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(out)}: "
                           f"{list(x._shape[:-2]) + out}")
    _float_only("adaptive_max_pool2d", x)
    N, C, H, W = x4._shape
    g = PoolGeometry(N, C, H, W, out[0], out[1], adaptive=True)
    vals, idx = _max_pool(x4, g, "AdaptiveMaxPool2DBackward0")
    vals, idx = _finish(vals, batched), _finish(idx, batched)
    return (vals, idx) if return_indices else vals
