"""3-D convolution and pooling of ``torch.nn.functional`` (conv3d, max_pool3d, avg_pool3d) over
(N, C, D, H, W) input, as composites: the windows are gathered from the padded, flattened volume with one
``index_select`` (positions computed on the host from the shapes), then a matmul (conv3d), an amax or a
mean over each window; autograd gives the gradients on both devices. No 3-D kernel of its own: correct,
and as fast as a gather and a matmul allow."""
from __future__ import annotations

import math

import numpy as np

from .. import _dtype
from ..tensor import Tensor
from ._registry import OpDef, register

__all__ = ["conv3d", "max_pool3d", "avg_pool3d"]

register(OpDef("conv3d", "nn", None, None, tol=(1e-5, 1e-5), extra={"messages": True},
               doc="gathered windows (im2col) times the weight: one matmul per group"))
register(OpDef("max_pool3d", "nn", None, None, tol=(0, 0), extra={"messages": True},
               doc="the max of each gathered window"))
register(OpDef("avg_pool3d", "nn", None, None, tol=(1e-6, 1e-6), extra={"messages": True},
               doc="the sum of each gathered window over PyTorch's divisor"))


def _triple(v) -> tuple[int, int, int]:
    return tuple(int(x) for x in v) if isinstance(v, (tuple, list)) else (int(v),) * 3


def _windows(size, k, d, s, pad_lo, out):
    """(flat positions in the padded volume (K * L,), padded size): window element (k..) of output (o..)."""
    padded = [size[i] + pad_lo[i] + max(0, (out[i] - 1) * s[i] + d[i] * (k[i] - 1) + 1 - size[i] - pad_lo[i])
              for i in range(3)]
    grids = np.meshgrid(*[np.arange(n) for n in (*k, *out)], indexing="ij")
    flat = 0
    for i in range(3):
        flat = flat * padded[i] + grids[i] * d[i] + grids[3 + i] * s[i]
    return flat.reshape(-1).astype(np.int64), padded


def _gather(x: Tensor, k, d, s, pad_lo, out, value: float):
    """(N, C, K, L) windows of x (N, C, D, H, W), padded with value."""
    from .creation import tensor as make
    from .shape import pad
    n, c = x.shape[0], x.shape[1]
    pos, padded = _windows(tuple(x.shape[2:]), k, d, s, pad_lo, out)
    widths = []
    for i in (2, 1, 0):
        widths += [pad_lo[i], padded[i] - x.shape[2 + i] - pad_lo[i]]
    xp = pad(x, tuple(widths), value=value) if any(widths) else x
    cols = xp.reshape(n, c, int(np.prod(padded))).index_select(2, make(pos, device=x.device))
    return cols.reshape(n, c, int(np.prod(k)), int(np.prod(out)))


def _batched(name: str, x: Tensor) -> tuple[Tensor, bool]:
    if x.dim() not in (4, 5) or (name != "conv3d" and x.numel() == 0):
        if name == "conv3d":
            raise RuntimeError(f"Expected 4D (unbatched) or 5D (batched) input to conv3d, but got input of size: "
                               f"{list(x.shape)}")
        raise RuntimeError("non-empty 4D or 5D (batch mode) tensor expected for input")
    return (x, True) if x.dim() == 5 else (x.unsqueeze(0), False)


def conv3d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0, dilation=1,
           groups: int = 1) -> Tensor:
    """3-D convolution of (N, C_in, D, H, W) (or unbatched (C_in, D, H, W)) input with weight
    (C_out, C_in / groups, kD, kH, kW); ``padding`` may be 'same' or 'valid'.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.conv3d(torch.ones(1, 1, 3, 3, 3), torch.ones(1, 1, 2, 2, 2)).flatten().tolist()
        [8.0, 8.0, 8.0, 8.0, 8.0, 8.0, 8.0, 8.0]
    """
    s, d = _triple(stride), _triple(dilation)
    x, batched = _batched("conv3d", input)
    if weight.dim() != 5:
        raise RuntimeError(f"Expected 5-dimensional weight for 5-dimensional input {list(x.shape)}, but got "
                           f"{weight.dim()}-dimensional weight of size {list(weight.shape)} instead")
    k = tuple(weight.shape[2:])
    n, c = x.shape[0], x.shape[1]
    o = weight.shape[0]
    if c != weight.shape[1] * groups:
        raise RuntimeError(f"Given groups={groups}, weight of size {list(weight.shape)}, expected input"
                           f"{list(input.shape)} to have {weight.shape[1] * groups} channels, but got {c} channels "
                           "instead")
    if isinstance(padding, str):
        if padding == "same" and any(v != 1 for v in s):
            raise RuntimeError("padding='same' is not supported for strided convolutions")
        totals = [d[i] * (k[i] - 1) if padding == "same" else 0 for i in range(3)]
        lo = tuple(t // 2 for t in totals)
        hi = tuple(t - t // 2 for t in totals)
    else:
        lo = hi = _triple(padding)
    size = tuple(x.shape[2:])
    out = tuple((size[i] + lo[i] + hi[i] - d[i] * (k[i] - 1) - 1) // s[i] + 1 for i in range(3))
    if min(out) < 1:
        raise RuntimeError(f"Calculated padded input size per channel: ({' x '.join(str(size[i] + lo[i] + hi[i]) for i in range(3))}). "
                           f"Kernel size: ({' x '.join(str(d[i] * (k[i] - 1) + 1) for i in range(3))}). Kernel size can't "
                           "be greater than actual input size")
    if hi != lo:  # 'same' with an even kernel: the extra row goes after
        from .shape import pad
        x = pad(x, (0, hi[2] - lo[2], 0, hi[1] - lo[1], 0, hi[0] - lo[0]))
    cols = _gather(x, k, d, s, lo, out, 0.0)                                    # (N, C, K, L)
    kk, length = cols.shape[2], cols.shape[3]
    cols = cols.reshape(n, groups, (c // groups) * kk, length)
    w = weight.reshape(1, groups, o // groups, (c // groups) * kk)
    y = (w @ cols).reshape(n, o, *out)
    if bias is not None:
        y = y + bias.reshape(1, o, 1, 1, 1)
    return y if batched else y.squeeze(0)


def _pool_out(size, k, d, s, p, ceil_mode: bool) -> tuple:
    out = []
    for i in range(3):
        o = (size[i] + 2 * p[i] - d[i] * (k[i] - 1) - 1 + (s[i] - 1 if ceil_mode else 0)) // s[i] + 1
        if ceil_mode and (o - 1) * s[i] >= size[i] + p[i]:
            o -= 1
        out.append(o)
    return tuple(out)


def _pool_args(name: str, input: Tensor, kernel_size, stride, padding, dilation, ceil_mode: bool):
    k = _triple(kernel_size)
    s = k if stride is None or (isinstance(stride, (list, tuple)) and len(stride) == 0) else _triple(stride)
    p, d = _triple(padding), _triple(dilation)
    x, batched = _batched(name, input)
    for i in range(3):
        if p[i] > (d[i] * (k[i] - 1) + 1) // 2:
            raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={p[i]}, "
                               f"kernel_size={k[i]} and dilation={d[i]}")
    size = tuple(x.shape[2:])
    out = _pool_out(size, k, d, s, p, ceil_mode)
    if min(out) < 1:
        raise RuntimeError(f"Given input size: ({x.shape[1]}x{size[0]}x{size[1]}x{size[2]}). Calculated output size: "
                           f"({x.shape[1]}x{out[0]}x{out[1]}x{out[2]}). Output size is too small")
    return x, batched, k, s, p, d, size, out


def max_pool3d(input: Tensor, kernel_size, stride=None, padding=0, dilation=1, ceil_mode: bool = False,
               return_indices: bool = False):
    """3-D max pooling over (N, C, D, H, W) (or (C, D, H, W)); ``return_indices`` also gives each max's flat
    position in its input volume (D * H * W).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.max_pool3d(torch.arange(8.).reshape(1, 1, 2, 2, 2), 2).flatten().tolist()
        [7.0]
    """
    from .creation import tensor as make
    x, batched, k, s, p, d, size, out = _pool_args("max_pool3d", input, kernel_size, stride, padding, dilation,
                                                   ceil_mode)
    cols = _gather(x, k, d, s, p, out, -math.inf)
    vals, arg = cols.max(2)
    shape = (x.shape[0], x.shape[1], *out)
    vals = vals.reshape(shape)
    if not return_indices:
        return vals if batched else vals.squeeze(0)
    # the input position of window element j of output l, in the unpadded volume
    grids = np.meshgrid(*[np.arange(n) for n in (*k, *out)], indexing="ij")
    flat = 0
    for i in range(3):
        flat = flat * size[i] + (grids[i] * d[i] + grids[3 + i] * s[i] - p[i])
    table = make(flat.reshape(int(np.prod(k)), -1), device=x.device)           # (K, L)
    length = table.shape[1]
    idx = table.unsqueeze(0).unsqueeze(0).expand(x.shape[0], x.shape[1], -1, length) \
        .gather(2, arg.unsqueeze(2)).squeeze(2).reshape(shape).to(_dtype.int64)
    return (vals, idx) if batched else (vals.squeeze(0), idx.squeeze(0))


def avg_pool3d(input: Tensor, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override=None) -> Tensor:
    """3-D average pooling over (N, C, D, H, W) (or (C, D, H, W)), with PyTorch's divisors for padded and
    ``ceil_mode`` windows (or ``divisor_override``).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.avg_pool3d(torch.arange(8.).reshape(1, 1, 2, 2, 2), 2).flatten().tolist()
        [3.5]
    """
    from .creation import tensor as make
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    x, batched, k, s, p, _, size, out = _pool_args("avg_pool3d", input, kernel_size, stride, padding, 1, ceil_mode)
    total = _gather(x, k, (1, 1, 1), s, p, out, 0.0).sum(2)                      # (N, C, L)
    if divisor_override is not None:
        div = np.full(int(np.prod(out)), float(divisor_override))
    else:
        div = np.ones(out)
        for i in range(3):
            start = np.arange(out[i]) * s[i] - p[i]
            end = np.minimum(start + k[i], size[i] + p[i])
            pool = end - start
            start, end = np.maximum(start, 0), np.minimum(end, size[i])
            f = pool if count_include_pad else end - start
            div = div * f.reshape([-1 if j == i else 1 for j in range(3)])
        div = div.reshape(-1)
    y = (total / make(div.astype(np.float32), device=x.device)).reshape(x.shape[0], x.shape[1], *out)
    return y if batched else y.squeeze(0)
