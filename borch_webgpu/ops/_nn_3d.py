"""3-D convolution and pooling of ``torch.nn.functional`` (conv3d, conv_transpose3d, max_pool3d, avg_pool3d,
adaptive_avg_pool3d, adaptive_max_pool3d, lp_pool3d) over (N, C, D, H, W) input, as composites: the windows
are gathered from the padded, flattened volume with one ``index_select`` (positions computed on the host from
the shapes), then a matmul (conv3d), an amax or a mean over each window; conv_transpose3d is conv3d over the
input with zeros inserted between its elements (stride), padded by the flipped kernel's reach. Autograd gives
the gradients on both devices. No 3-D kernel of its own: correct, and as fast as a gather and a matmul allow."""
from __future__ import annotations

import math

import numpy as np

from .. import _dtype
from ..tensor import Tensor
from ._registry import OpDef, register

__all__ = ["conv3d", "conv_transpose3d", "max_pool3d", "avg_pool3d", "adaptive_avg_pool3d", "adaptive_max_pool3d",
           "lp_pool3d"]

register(OpDef("conv3d", "nn", None, None, tol=(1e-5, 1e-5), extra={"messages": True},
               doc="gathered windows (im2col) times the weight: one matmul per group"))
register(OpDef("max_pool3d", "nn", None, None, tol=(0, 0), extra={"messages": True},
               doc="the max of each gathered window"))
register(OpDef("avg_pool3d", "nn", None, None, tol=(1e-6, 1e-6), extra={"messages": True},
               doc="the sum of each gathered window over PyTorch's divisor"))
register(OpDef("conv_transpose3d", "nn", None, None, tol=(1e-5, 1e-5), extra={"messages": True},
               doc="conv3d of the zero-inserted, padded input with the flipped, transposed weight"))
register(OpDef("adaptive_avg_pool3d", "nn", None, None, tol=(1e-6, 1e-6), extra={"messages": True},
               doc="the sum of each gathered adaptive window over its size"))
register(OpDef("adaptive_max_pool3d", "nn", None, None, tol=(0, 0), extra={"messages": True},
               doc="the max of each gathered adaptive window (short windows padded with -inf)"))
# a power, a window sum and a root: a few ulps of O(1) values (as lp_pool2d)
register(OpDef("lp_pool3d", "nn", None, None, tol=(1e-5, 1e-6), extra={"messages": True},
               doc="(sum of x^p over the window)^(1/p) through avg_pool3d"))


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
    conv = name.startswith("conv")
    if x.dim() not in (4, 5) or (not conv and x.numel() == 0):
        if conv:
            raise RuntimeError(f"Expected 4D (unbatched) or 5D (batched) input to {name}, but got input of size: "
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


def _dilate(x: Tensor, dim: int, s: int) -> Tensor:
    """x with s - 1 zeros between neighbours along dim (the input of a stride-s transposed convolution)."""
    if s == 1 or x.shape[dim] == 0:
        return x
    from .creation import zeros
    from .shape import cat
    shape = list(x.shape)
    zero = zeros(*shape[:dim + 1], s - 1, *shape[dim + 1:], dtype=x.dtype, device=x.device)
    y = cat([x.unsqueeze(dim + 1), zero], dim + 1).reshape(*shape[:dim], shape[dim] * s, *shape[dim + 1:])
    return y.narrow(dim, 0, (shape[dim] - 1) * s + 1)


def conv_transpose3d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0,
                     output_padding=0, groups: int = 1, dilation=1) -> Tensor:
    """3-D transposed convolution ("deconvolution"): the gradient of conv3d with respect to its input.

    Args:
        input: (N, C_in, D, H, W) or (C_in, D, H, W).
        weight: (C_in, C_out / groups, kD, kH, kW).
        bias: optional (C_out,).
        output_padding: extra planes/rows/columns after the output (smaller than stride or dilation).

    Shape: D_out = (D - 1)*stride - 2*padding + dilation*(kD - 1) + output_padding + 1 (H, W alike).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.conv_transpose3d(torch.ones(1, 1, 2, 2, 2), torch.ones(1, 1, 2, 2, 2), stride=2).shape
        torch.Size([1, 1, 4, 4, 4])
    """
    from .conv import _expand, _ints, _params, _tensor_arg
    from .shape import pad
    name = "conv_transpose3d"
    _tensor_arg(name, "input", 1, input)
    _tensor_arg(name, "weight", 2, weight)
    if bias is not None:
        _tensor_arg(name, "bias", 3, bias)
    if isinstance(padding, str):
        raise TypeError(f"{name}(): argument 'padding' must be tuple of ints, not str")
    x, batched = _batched(name, input)
    if weight.dim() == 5:  # PyTorch words this check for three dims (ops/conv.py's for two)
        st, opad, dil = (_expand(n, _ints(name, n, v, 3), 3) for n, v in
                         (("stride", stride), ("output_padding", output_padding), ("dilation", dilation)))
        if any(o >= s and o >= d for o, s, d in zip(opad, st, dil)):
            raise RuntimeError("output padding must be smaller than either stride or dilation, but got "
                               + " ".join(f"{w}_{a}: {v[i]}" for w, v in (("output_padding", opad), ("stride", st),
                                                                         ("dilation", dil))
                                          for i, a in enumerate(("depth", "height", "width"))))
    st, pads, dil, opad = _params(name, x, weight, bias, stride, padding, dilation, groups, transposed=True,
                                  output_padding=output_padding)
    p = [a for a, _ in pads]
    ci, cog, k = weight.shape[0], weight.shape[1], tuple(weight.shape[2:])
    size = tuple(x.shape[2:])
    out = [(size[i] - 1) * st[i] - 2 * p[i] + dil[i] * (k[i] - 1) + opad[i] + 1 for i in range(3)]
    if min(out) <= 0:
        raise RuntimeError(f"Given input size per channel: ({' x '.join(map(str, size))}). Calculated output size "
                           f"per channel: ({' x '.join(map(str, out))}). Output size is too small")
    for i in range(3):
        x = _dilate(x, 2 + i, st[i])
    reach = [dil[i] * (k[i] - 1) - p[i] for i in range(3)]   # negative: crop (F.pad crops)
    widths = []
    for i in (2, 1, 0):
        widths += [reach[i], reach[i] + opad[i]]
    if any(widths):
        x = pad(x, tuple(widths))
    w = weight.reshape(groups, ci // groups, cog, *k).transpose(1, 2).reshape(groups * cog, ci // groups, *k)
    y = conv3d(x, w.flip(2, 3, 4), bias, 1, 0, tuple(dil), groups)
    return y if batched else y.squeeze(0)


def _adaptive_table(size, out):
    """Positions of PyTorch's adaptive windows: window o of a dim of size n covers
    [floor(o * n / O), ceil((o + 1) * n / O)). Returns (flat positions (L, K) in the volume padded by one slot
    at the end of each dim (short windows point there), window sizes (L,), flat positions (L, K) in the unpadded
    volume), K the product of the longest windows."""
    idx, cnt = [], []
    for n, o in zip(size, out):
        i = np.arange(o)
        start, end = (i * n) // o, -((-(i + 1) * n) // o)
        j = start[:, None] + np.arange(int((end - start).max()))[None, :]
        idx.append(np.where(j < end[:, None], j, n))
        cnt.append(end - start)
    (a, b, c), (d, h, w) = idx, size
    grid = lambda m: (a[:, None, None, :, None, None] * (h + m) + b[None, :, None, None, :, None]) * (w + m) + \
        c[None, None, :, None, None, :]  # noqa: E731
    count = cnt[0][:, None, None] * cnt[1][None, :, None] * cnt[2][None, None, :]
    length = int(np.prod(out))
    return grid(1).reshape(length, -1), count.reshape(-1), grid(0).reshape(length, -1)


def _adaptive_args(name: str, input: Tensor, output_size):
    from .pooling import _float_only, _output_size
    x0 = input
    if not isinstance(x0, Tensor):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type(x0).__name__}")
    out = _output_size(x0, output_size, 3)
    if x0.dim() not in (4, 5):
        raise RuntimeError(f"{name}(): Expected 4D or 5D tensor, but got{':' if 'max' in name else ''} "
                           f"{list(x0.shape)}")
    for i in range(1, x0.dim()):
        if x0.shape[i] == 0:
            raise RuntimeError(f"{name}(): Expected input to have non-zero size for non-batch dimensions, but input "
                               f"has sizes {list(x0.shape)} with dimension {i} being empty")
    if len(out) != 3:
        raise RuntimeError(f"{name}(): internal error: output_size.size() must be 3" if "max" in name else
                           f"{name}: output_size must be 3")
    x, batched = (x0, True) if x0.dim() == 5 else (x0.unsqueeze(0), False)
    if min(out) < 0:
        if "max" in name:
            raise RuntimeError(f"Trying to create tensor with negative dimension {min(out)}: "
                               f"{list(x0.shape[:-3]) + out}")
        raise RuntimeError(f"{name}: elements of output_size must be greater than or equal to 0 but received "
                           f"{{{out[0]}, {out[1]},{out[2]}}}")
    _float_only(name + "_cpu", x)
    return x, batched, out


def _adaptive_windows(x: Tensor, out, value: float):
    """((N, C, L, K) windows of x padded with value, window sizes, unpadded positions), or None when L is 0."""
    from .creation import tensor as make
    from .shape import pad
    if 0 in out:
        return None
    n, c = x.shape[0], x.shape[1]
    flat, count, plain = _adaptive_table(tuple(x.shape[2:]), out)
    vol = int(np.prod([s + 1 for s in x.shape[2:]]))
    cols = pad(x, (0, 1, 0, 1, 0, 1), value=value).reshape(n, c, vol).index_select(2, make(flat.reshape(-1),
                                                                                           device=x.device))
    return cols.reshape(n, c, *flat.shape), count, plain


def adaptive_avg_pool3d(input: Tensor, output_size) -> Tensor:
    """Average over PyTorch's adaptive windows, to (N, C, *output_size) (``F.adaptive_avg_pool3d``).

    output_size: an int or a triple; None keeps that input size. Window o of an input of size I and an output
    of size O covers [floor(o*I/O), ceil((o+1)*I/O)).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.adaptive_avg_pool3d(torch.arange(8.).reshape(1, 1, 2, 2, 2), 1).flatten().tolist()
        [3.5]
    """
    from .creation import tensor as make
    x, batched, out = _adaptive_args("adaptive_avg_pool3d", input, output_size)
    win = _adaptive_windows(x, out, 0.0)
    shape = (x.shape[0], x.shape[1], *out)
    if win is None:
        y = x.reshape(-1)[:0].reshape(shape)
    else:
        cols, count, _ = win
        y = (cols.sum(3) / make(count.astype(np.float32), device=x.device)).reshape(shape)
    return y if batched else y.squeeze(0)


def adaptive_max_pool3d(input: Tensor, output_size, return_indices: bool = False):
    """Max over PyTorch's adaptive windows (``F.adaptive_max_pool3d``); ``return_indices`` also gives each
    max's flat position in its input volume (D * H * W), as max_pool3d does.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.adaptive_max_pool3d(torch.arange(27.).reshape(1, 1, 3, 3, 3), 2).flatten().tolist()
        [13.0, 14.0, 16.0, 17.0, 22.0, 23.0, 25.0, 26.0]
    """
    from .creation import tensor as make
    x, batched, out = _adaptive_args("adaptive_max_pool3d", input, output_size)
    shape = (x.shape[0], x.shape[1], *out)
    win = _adaptive_windows(x, out, -math.inf)
    if win is None:
        vals = x.reshape(-1)[:0].reshape(shape)
        idx = vals.detach().to(_dtype.int64)
    else:
        cols, _, plain = win
        vals, arg = cols.max(3)
        table = make(plain, device=x.device)                                     # (L, K)
        idx = table.expand(x.shape[0], x.shape[1], *plain.shape).gather(3, arg.unsqueeze(3)).squeeze(3)
        vals, idx = vals.reshape(shape), idx.reshape(shape).to(_dtype.int64)
    if not batched:
        vals, idx = vals.squeeze(0), idx.squeeze(0)
    return (vals, idx) if return_indices else vals


def lp_pool3d(input: Tensor, norm_type: float, kernel_size, stride=None, ceil_mode: bool = False) -> Tensor:
    """Power-average pooling over (N, C, D, H, W): ``(sum over the window of x^p)^(1/p)``; ``p = inf`` is max
    pooling of ``|x|`` (PyTorch's composite: a power, avg_pool3d, a root).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.lp_pool3d(torch.ones(1, 1, 2, 2, 2), 2, 2).flatten().tolist()
        [2.8284270763397217]
    """
    from ._nn_misc import _lp_root
    kd, kh, kw = _triple(kernel_size)
    if norm_type == float("inf"):
        return max_pool3d(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if norm_type == -float("inf"):
        return -max_pool3d(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    out = avg_pool3d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    return _lp_root(out, norm_type, kd * kh * kw)
