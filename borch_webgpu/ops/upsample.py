"""Resampling: interpolate (modes 'nearest', 'linear' and 'bilinear'), upsample (its deprecated
alias), pixel_shuffle and pixel_unshuffle.

interpolate computes, on the host and in float32 exactly as PyTorch's kernels do, each output
row's and column's source positions and weights (its scale from scale_factor or the sizes, its
align_corners rule, its shortcuts for equal sizes and for nearest 2x), then one kernel resamples:
wgsl/upsample.wgsl on WebGPU, the numpy reference below on cpu. Both evaluate PyTorch's expression
in its order, and the backward adds each output's terms in PyTorch's order as a gather (no atomics),
so results match PyTorch's CPU kernels to the rounding of the last operation at most.
pixel_shuffle/unshuffle are reshape, permute, reshape (one copy).
"""
from __future__ import annotations

import builtins
import functools
import math
import numbers
import warnings

import numpy as np

from .. import autograd
from ..tensor import Tensor
from ._registry import OpDef, register

__all__ = ["interpolate", "upsample", "pixel_shuffle", "pixel_unshuffle"]

# Tolerances against PyTorch's CPU (float32). nearest and the shuffles move values: exact. linear and
# bilinear compute w0 * a + w1 * b per dim with PyTorch's float32 weights; a compiler may fuse a
# multiply-add on either side (PyTorch's CPU build contracts some of them): a few ulp of the result
# and of the weights, rtol 2e-6 and atol 1e-6 for values near zero.
INTERPOLATE = register(OpDef("interpolate", "nn", ("upsample.wgsl", "fwd"), None, tol=(2e-6, 1e-6),
                             doc="nearest / linear / bilinear resampling with PyTorch's source positions",
                             extra={"grad_tol": (2e-6, 1e-5)}))
_INTERPOLATE_BWD = register(OpDef("_interpolate_backward", "nn", ("upsample.wgsl", "bwd"), None, tol=(2e-6, 1e-5),
                                  extra={"golden": "interpolate"}))
PIXEL_SHUFFLE = register(OpDef("pixel_shuffle", "nn", None, None, tol=(0.0, 0.0),
                               doc="(*, C*r*r, H, W) -> (*, C, H*r, W*r) as reshape + permute"))
PIXEL_UNSHUFFLE = register(OpDef("pixel_unshuffle", "nn", None, None, tol=(0.0, 0.0),
                                 doc="(*, C, H*r, W*r) -> (*, C*r*r, H, W) as reshape + permute"))

_MODES = "nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact"


# ---- source indices and weights, as PyTorch's kernels compute them ------------------------------------
def _scale(in_size: int, out_size: int, align_corners: bool, scale_factor, ft=np.float32) -> np.float32:
    """area_pixel_compute_scale<float> (<double> for float64 data: ft)."""
    if align_corners:
        return ft(in_size - 1) / ft(out_size - 1) if out_size > 1 else ft(0)
    if scale_factor is not None and scale_factor > 0:
        return ft(1.0 / scale_factor)
    return ft(in_size) / ft(out_size)


def nearest_indices(in_size: int, out_size: int, scale_factor) -> np.ndarray:
    dst = np.arange(out_size)
    if out_size == in_size:
        return dst
    if out_size == 2 * in_size:
        return dst >> 1
    s = _scale(in_size, out_size, False, scale_factor)
    return np.minimum(np.floor(dst.astype(np.float32) * s).astype(np.int64), in_size - 1)


def linear_weights(in_size: int, out_size: int, align_corners: bool, scale_factor, ft=np.float32):
    """(i0, i1, l0, l1): out[d] = l0[d] * x[i0[d]] + l1[d] * x[i1[d]] (weights in ft)."""
    dst = np.arange(out_size)
    if out_size == in_size:
        return dst, dst, np.ones(out_size, ft), np.zeros(out_size, ft)
    s = _scale(in_size, out_size, align_corners, scale_factor, ft)
    d = dst.astype(ft)
    if align_corners:
        real = s * d
    else:
        real = np.maximum(s * (d + ft(0.5)) - ft(0.5), ft(0))
    i0 = np.minimum(np.floor(real).astype(np.int64), in_size - 1)
    l1 = np.clip(real - i0.astype(ft), ft(0), ft(1)).astype(ft)
    i1 = i0 + (i0 < in_size - 1)
    return i0, i1, (ft(1) - l1).astype(ft), l1


def table(in_hw, out_hw, mode: str, align_corners: bool, factors, ft=np.float32) -> np.ndarray:
    """The float32 source table of wgsl/upsample.wgsl: per output row then column (i0, i1, l0, l1);
    per input row then column the (first, last) output that reads it ((1, 0) when none). ft=float64:
    the table (and the weights PyTorch computes in double) for float64 data, on the host."""
    per_dim = []
    for d in range(2):
        I, O = in_hw[d], out_hw[d]
        f = factors[d] if factors else None
        if mode == "linear" and d == 0:  # 1-D: the single row is copied
            i0 = i1 = np.zeros(1, np.int64)
            l0, l1 = np.ones(1, np.float32), np.zeros(1, np.float32)
        elif mode == "nearest":
            i0 = i1 = nearest_indices(I, O, f)
            l0, l1 = np.ones(O, np.float32), np.zeros(O, np.float32)
        else:
            i0, i1, l0, l1 = linear_weights(I, O, align_corners, f, ft)
        o = np.arange(O)
        first, last = np.full(I, O, np.int64), np.full(I, -1, np.int64)
        for idx in (i0, i1):
            np.minimum.at(first, idx, o)
            np.maximum.at(last, idx, o)
        none = last < 0
        first[none], last[none] = 1, 0
        per_dim.append((np.stack([i0, i1, l0, l1], 1), np.stack([first, last], 1)))
    parts = [per_dim[0][0], per_dim[1][0], per_dim[0][1], per_dim[1][1]]
    return np.concatenate([p.astype(ft).reshape(-1) for p in parts])


def _split(tab: np.ndarray, in_hw, out_hw):
    OH, OW = out_hw
    r = tab[:4 * OH].reshape(OH, 4)
    c = tab[4 * OH:4 * (OH + OW)].reshape(OW, 4)
    return r, c


def np_resample(x: np.ndarray, tab: np.ndarray, out_hw, mode: str) -> np.ndarray:
    """The cpu device's kernel: wgsl/upsample.wgsl's expression, in float32."""
    r, c = _split(tab, x.shape[2:], out_hw)
    x = x.astype(tab.dtype, copy=False)
    h0, h1, w0, w1 = (a.astype(np.int64) for a in (r[:, 0], r[:, 1], c[:, 0], c[:, 1]))
    if mode == "nearest":
        return x[:, :, h0[:, None], w0[None, :]]
    with np.errstate(all="ignore"):
        t0 = x[:, :, h0[:, None], w0[None, :]] * c[:, 2] + x[:, :, h0[:, None], w1[None, :]] * c[:, 3]
        if mode == "linear":
            return t0
        t1 = x[:, :, h1[:, None], w0[None, :]] * c[:, 2] + x[:, :, h1[:, None], w1[None, :]] * c[:, 3]
        return t0 * r[:, 2:3] + t1 * r[:, 3:4]


def np_resample_backward(dy: np.ndarray, tab: np.ndarray, in_hw, mode: str) -> np.ndarray:
    """dx: every output's terms added in PyTorch's order (outputs in raster order, then (h0, w0),
    (h0, w1), (h1, w0), (h1, w1)), with the weight products (lh * lw) * g."""
    N, C, OH, OW = dy.shape
    H, W = in_hw
    r, c = _split(tab, in_hw, (OH, OW))
    h = [r[:, 0].astype(np.int64), r[:, 1].astype(np.int64)]
    w = [c[:, 0].astype(np.int64), c[:, 1].astype(np.int64)]
    lh, lw = [r[:, 2], r[:, 3]], [c[:, 2], c[:, 3]]
    terms = {"nearest": [(0, 0)], "linear": [(0, 0), (0, 1)], "bilinear": [(0, 0), (0, 1), (1, 0), (1, 1)]}[mode]
    g = dy.astype(tab.dtype).reshape(N * C, OH, OW)
    pos, vals = [], []
    with np.errstate(all="ignore"):
        for a, b in terms:
            pos.append(h[a][:, None] * W + w[b][None, :])
            if mode == "nearest":
                vals.append(g)
            elif mode == "linear":
                vals.append(lw[b][None, None, :] * g)
            else:
                vals.append((lh[a][:, None] * lw[b][None, :])[None] * g)
    pos = np.broadcast_to(np.stack(pos, -1)[None], (N * C, OH, OW, len(terms))).reshape(N * C, -1)
    vals = np.stack(vals, -1).reshape(N * C, -1)
    rows = np.broadcast_to(np.arange(N * C)[:, None], pos.shape)
    dx = np.zeros((N * C, H * W), tab.dtype)
    np.add.at(dx, (rows, pos), vals)
    return dx.reshape(N, C, H, W)


def _cpu(t: Tensor) -> np.ndarray:
    from ..device.cpu import BACKEND
    return BACKEND.view(t)


def _make(data, shape, like: Tensor) -> Tensor:
    if like._device.type == "cpu":
        from ..device.cpu import CPUStorage
        data = CPUStorage(np.ascontiguousarray(data, dtype=like.dtype.storage_np).reshape(-1))
    return Tensor._make(data, shape, like.dtype, like.device)


@functools.lru_cache(maxsize=64)
def _gpu_table(key: tuple) -> Tensor:
    """The table as a WebGPU tensor, uploaded once per geometry (a training loop reuses it)."""
    from .creation import tensor
    return tensor(table(*key), device="webgpu")


def _tab_for(x: Tensor, key: tuple):
    if x.dtype.name == "float64":
        return table(*key, ft=np.float64)
    return _gpu_table(key) if x._device.type == "webgpu" else table(*key)


def _resample(x: Tensor, key: tuple) -> Tensor:
    """x (N, C, H, W) resampled to key's output size (key: table's arguments)."""
    out_hw, mode = key[1], key[2]
    shape = tuple(x._shape[:2]) + tuple(out_hw)
    xd = x.detach()
    if x._device.type == "webgpu":
        from ..device import gpu_upsample
        y = _make(gpu_upsample.forward(xd, _tab_for(x, key), out_hw, mode, x.dtype), shape, x)
    else:
        y = _make(np_resample(_cpu(xd), _tab_for(x, key), out_hw, mode), shape, x)
    name = {"nearest": "UpsampleNearest2DBackward0", "linear": "UpsampleLinear1DBackward0",
            "bilinear": "UpsampleBilinear2DBackward0"}[mode]
    autograd.record(name, [x], [y], lambda g: (_resample_backward(g, key),))
    return y


def _resample_backward(dy: Tensor, key: tuple) -> Tensor:
    in_hw, mode = key[0], key[2]
    shape = tuple(dy._shape[:2]) + tuple(in_hw)
    dyd = dy.detach()
    if dy._device.type == "webgpu":
        from ..device import gpu_upsample
        dx = _make(gpu_upsample.backward(dyd, _tab_for(dy, key), in_hw, mode, dy.dtype), shape, dy)
    else:
        dx = _make(np_resample_backward(_cpu(dyd), _tab_for(dy, key), in_hw, mode), shape, dy)
    autograd.record("UpsampleBackwardBackward0", [dy], [dx], lambda gg: (_resample(gg, key),))
    return dx


# ---- interpolate ---------------------------------------------------------------------------------------
def _is_int(v) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, builtins.bool)


def interpolate(input: Tensor, size=None, scale_factor=None, mode: str = "nearest", align_corners=None,
                recompute_scale_factor=None, antialias: bool = False) -> Tensor:
    """Resample the spatial dims of (N, C, L), (N, C, H, W) or (N, C, D, H, W) input (``F.interpolate``).

    Args:
        size: the output size (an int or one per spatial dim), or
        scale_factor: a multiplier (a float or one per dim); the output size is floor(size * factor).
        mode: ``'nearest'`` (3-D, 4-D or 5-D input), ``'linear'`` (3-D), ``'bilinear'`` (4-D) or
            ``'trilinear'`` (5-D).
        align_corners: (linear modes) map the corner pixels' centers onto each other.
        recompute_scale_factor: compute the output size from scale_factor, then resample as if that
            size had been given.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.interpolate(torch.tensor([[[1., 2.]]]), scale_factor=2).tolist()
        [[[1.0, 1.0, 2.0, 2.0]]]
        >>> F.interpolate(torch.tensor([[[1., 2.]]]), size=4, mode='linear').tolist()
        [[[1.0, 1.25, 1.75, 2.0]]]
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"interpolate(): argument 'input' must be Tensor, not {type(input).__name__}")
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating modes: linear | bilinear | "
                             "bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    dim = input.dim() - 2
    spatial = list(input._shape[2:])
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        factors = None
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError(f"Input and output must have the same number of spatial dimensions, but got input "
                                 f"with spatial dimensions of {spatial} and output size of {size}. Please provide "
                                 f"input tensor in (N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) "
                                 f"format.")
            if not all(_is_int(v) for v in size):
                raise TypeError(f"expected size to be one of int or Tuple[int] or Tuple[int, int] or Tuple[int, int, "
                                f"int], but got size with types {[type(v) for v in size]}")
            out = [builtins.int(v) for v in size]
        else:
            out = [builtins.int(size)] * builtins.max(dim, 0)
    elif scale_factor is not None:
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dim:
                raise ValueError(f"Input and scale_factor must have the same number of spatial dimensions, but got "
                                 f"input with spatial dimensions of {spatial} and scale_factor of shape "
                                 f"{scale_factor}. Please provide input tensor in (N, C, d1, d2, ...,dK) format and "
                                 f"scale_factor in (s1, s2, ...,sK) format.")
            factors = [builtins.float(v) for v in scale_factor]
        else:
            factors = [builtins.float(scale_factor)] * builtins.max(dim, 0)
        out = [math.floor(s * f) for s, f in zip(spatial, factors)]
    else:
        raise ValueError("either size or scale_factor should be defined")
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if recompute_scale_factor:
        factors = None
    if antialias:
        raise NotImplementedError("interpolate: antialias=True is not supported")
    kind = {(1, "nearest"): "nearest", (2, "nearest"): "nearest", (3, "nearest"): "nearest", (1, "linear"): "linear",
            (2, "bilinear"): "linear", (3, "trilinear"): "linear"}.get((dim, mode))
    if kind is None:
        need = {"linear": 3, "bilinear": 4, "trilinear": 5}.get(mode)
        if need is not None and dim in (1, 2, 3):
            raise NotImplementedError(f"Got {input.dim()}D input, but {mode} mode needs {need}D input")
        if mode in ("bicubic", "area", "nearest-exact", "lanczos") and dim in (1, 2, 3):
            raise NotImplementedError(f"interpolate: mode '{mode}' is not supported here (nearest, linear and "
                                      f"bilinear, trilinear are)")
        raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.dim()}D) for "
                                  f"the modes: {_MODES} (got {mode})")
    names = {1: "W", 2: "HW", 3: "DHW"}[dim]
    if any(o <= 0 for o in out):
        ins = ", ".join(f"{n}: {s}" for n, s in zip(names, spatial))
        outs = ", ".join(f"{n}: {s}" for n, s in zip(names, out))
        raise RuntimeError(f"Input and output sizes should be greater than 0, but got input ({ins}) output ({outs})")
    if 0 in input._shape[1:]:
        raise RuntimeError(f"Non-empty {input.dim()}D data tensor expected but got a tensor with sizes "
                           f"{list(input._shape)}")
    if not input.dtype.is_floating_point:
        # PyTorch's kernel names (trilinear fails in its index/weight helper first)
        what = ("upsample_nearest" if dim < 3 else "upsample_nearest3d") if kind == "nearest" else \
            {1: "upsample_linear1d", 2: "upsample_bilinear2d", 3: "compute_indices_weights_linear"}[dim]
        tname = {"int64": "Long", "int32": "Int", "bool": "Bool"}[input.dtype.name]
        raise NotImplementedError(f"\"{what}\" not implemented for '{tname}'")
    if dim == 3:
        return _resample_3d(input, out, factors, kind, builtins.bool(align_corners))
    x4 = input if dim == 2 else input.unsqueeze(2)
    out_hw = tuple(out) if dim == 2 else (1, out[0])
    fs = None if factors is None else (tuple(factors) if dim == 2 else (None, factors[0]))
    mode_k = "nearest" if kind == "nearest" else ("bilinear" if dim == 2 else "linear")
    key = (tuple(x4._shape[2:]), out_hw, mode_k, builtins.bool(align_corners), fs)
    y = _resample(x4, key)
    return y if dim == 2 else y.squeeze(2)


def _resample_3d(x: Tensor, out, factors, kind: str, align_corners: bool) -> Tensor:
    """(N, C, D, H, W) resampled separably (nearest and trilinear both factor over the dims): H and W by the
    2-D kernel over (N, C*D, H, W), then D by it over (N, C, D, Ho*Wo) with the last dim kept."""
    n, c, d, h, w = x._shape
    do, ho, wo = out
    fd, fh, fw = (None, None, None) if factors is None else factors
    mode_k = "nearest" if kind == "nearest" else "bilinear"
    y = _resample(x.reshape(n, c * d, h, w), ((h, w), (ho, wo), mode_k, align_corners,
                                              None if factors is None else (fh, fw)))
    y = _resample(y.reshape(n, c, d, ho * wo), ((d, ho * wo), (do, ho * wo), mode_k, align_corners,
                                                None if factors is None else (fd, None)))
    return y.reshape(n, c, do, ho, wo)


def upsample(input: Tensor, size=None, scale_factor=None, mode: str = "nearest", align_corners=None) -> Tensor:
    """Deprecated alias of :func:`interpolate` (PyTorch warns the same way).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.upsample(torch.ones(1, 1, 2, 2), scale_factor=2).shape
        torch.Size([1, 1, 4, 4])
    """
    warnings.warn("`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode, align_corners)


# ---- pixel shuffles --------------------------------------------------------------------------------------
def _factor(op: str, name: str, v) -> int:
    if not _is_int(v):
        raise TypeError(f"{op}(): argument '{name}' (position 2) must be int, not {type(v).__name__}")
    return builtins.int(v)


def pixel_shuffle(input: Tensor, upscale_factor: int) -> Tensor:
    """(*, C*r*r, H, W) -> (*, C, H*r, W*r): channel blocks become r x r pixel blocks.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.pixel_shuffle(torch.arange(4.).reshape(1, 4, 1, 1), 2).tolist()
        [[[[0.0, 1.0], [2.0, 3.0]]]]
    """
    r = _factor("pixel_shuffle", "upscale_factor", upscale_factor)
    if input.dim() < 3:
        raise RuntimeError(f"pixel_shuffle expects input to have at least 3 dimensions, but got input with "
                           f"{input.dim()} dimension(s)")
    if r <= 0:
        raise RuntimeError(f"pixel_shuffle expects a positive upscale_factor, but got {r}")
    *batch, c, h, w = input._shape
    if c % (r * r):
        raise RuntimeError(f"pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
                           f"upscale_factor, but input.size(-3)={c} is not divisible by {r * r}")
    nb = len(batch)
    x = input.reshape(*batch, c // (r * r), r, r, h, w)
    x = x.permute(*range(nb), nb, nb + 3, nb + 1, nb + 4, nb + 2)
    return x.reshape(*batch, c // (r * r), h * r, w * r)


def pixel_unshuffle(input: Tensor, downscale_factor: int) -> Tensor:
    """(*, C, H*r, W*r) -> (*, C*r*r, H, W): the inverse of :func:`pixel_shuffle`.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> F.pixel_unshuffle(torch.arange(4.).reshape(1, 1, 2, 2), 2).flatten().tolist()
        [0.0, 1.0, 2.0, 3.0]
    """
    r = _factor("pixel_unshuffle", "downscale_factor", downscale_factor)
    if input.dim() < 3:
        raise RuntimeError(f"pixel_unshuffle expects input to have at least 3 dimensions, but got input with "
                           f"{input.dim()} dimension(s)")
    if r <= 0:
        raise RuntimeError(f"pixel_unshuffle expects a positive downscale_factor, but got {r}")
    *batch, c, h, w = input._shape
    if h % r:
        raise RuntimeError(f"pixel_unshuffle expects height to be divisible by downscale_factor, but "
                           f"input.size(-2)={h} is not divisible by {r}")
    if w % r:
        raise RuntimeError(f"pixel_unshuffle expects width to be divisible by downscale_factor, but "
                           f"input.size(-1)={w} is not divisible by {r}")
    if input.numel() == 0:  # PyTorch returns an empty input's copy, unshuffled shape and all
        return input.clone()
    nb = len(batch)
    x = input.reshape(*batch, c, h // r, r, w // r, r)
    x = x.permute(*range(nb), nb, nb + 2, nb + 4, nb + 1, nb + 3)
    return x.reshape(*batch, c * r * r, h // r, w // r)
