"""Convolutions on the ``webgpu`` device: fills the uniform words of wgsl/conv.wgsl, picks a tile
shape (device/conv_wgsl.py writes the kernel for it) and records the dispatches of the three
implicit-GEMM passes (forward, input gradient, weight gradient). ops/conv.py calls :func:`forward`,
:func:`input_grad` and :func:`weight_grad` with a :class:`Geometry`; x and dy are read through their
own strides, w is made contiguous.

Kernel choice (sizes never enter a pipeline key; the key is pass, dtype, tile shape and two flags):
- a tile shape per adapter kind (GPU_BIG / GPU_TILES / SOFTWARE_TILES below), the one that pads the
  GEMM least: the M side is a channel count, often 8..64, the N side a pixel count, often thousands;
- the input gradient is one dense GEMM per stride phase over the taps that reach that phase, so a
  stride-2 conv does no multiply-by-zero work; up to MAX_PHASES phases run in one dispatch (the
  kernel finds its workgroup's phase), more take one dispatch each;
- the weight gradient splits its reduction (batch x output pixels) across workgroups when the
  output tiles are few, then ``wgrad_sum`` adds the slabs; the bias gradient rides along as one
  more GEMM column of ones.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from . import trace_fusion, trace_fusion_tail
from .conv_wgsl import _threads, source
from .gpu_backend import GPUStorage, backend, software_adapter
from .webgpu import groups_for

__all__ = ["Geometry", "forward", "input_grad", "weight_grad", "source"]

# Tile shapes (BM, BN, BK, RM, RN): BM x BN outputs per workgroup of (BM/4RM) x (BN/4RN) threads,
# RM x RN blocks of 4 x 4 outputs per thread. Shared memory (BK * (BM + BN + 8) * 4 bytes) stays
# within WebGPU's default 16 KiB.
# GPUs: 256 threads; 128 x 128 tiles when that still makes BIG_TILES_MIN workgroups, else the
# 4 x 4-per-thread tile that pads the GEMM least (conv GEMMs are often small: M is a channel count).
# 8 x 8 outputs a thread: 128 x 128, or 64 x 256 where M (a channel count) is 64 and 128 rows would be
# half padding (measured on an H200: the 64 -> 64 3x3 layers at batch 64 spent 50% of their time on it)
GPU_BIG = ((128, 128, 8, 2, 2), (64, 256, 8, 2, 2))
GPU_TILES = ((64, 64, 16, 1, 1), (32, 128, 16, 1, 1), (16, 256, 8, 1, 1))
BIG_TILES_MIN = 128
# SwiftShader (a CPU): each barrier switches every 4-thread subgroup of a workgroup in and out, and
# code that keeps many values live compiles slowly, so 16-thread workgroups with 8 x 8 (or 8 x 4)
# outputs a thread and no register prefetch. Measured on a 2-core machine (Chromium 156, 2026-11-30),
# 3x3 conv 32->32 at batch 8, 16x16, forward: 157 ms with the GPU tiles, 21 ms with these.
SOFTWARE_TILES = ((32, 32, 16, 2, 2), (16, 64, 16, 2, 2), (8, 64, 16, 2, 1))
SPLIT_TARGET = 128     # weight gradient: aim for about this many workgroups (GPUs: SPLIT_TARGET_GPU) ...
SPLIT_TARGET_GPU = 512  # an H200 has 132 SMs: 135 workgroups of 256 threads left most of each SM idle
SPLIT_CHUNK_MIN = 256  # ... with no reduction chunk shorter than this
SPLITK_BELOW = 256     # GPUs: the forward and input gradient split along K below this many output tiles
MASK = 0xFFFFFFFF
MAX_PHASES = 8         # input gradients of up to this many stride phases run in one dispatch (words 54..61)


@dataclass(frozen=True)
class Geometry:
    """A 2-D convolution: input (NB, C, H, W), weight (CO, C // G, KH, KW), output (NB, CO, OH, OW);
    PH/PW are the top/left padding (the bottom/right follow from OH/OW)."""
    NB: int
    C: int
    H: int
    W: int
    CO: int
    OH: int
    OW: int
    KH: int
    KW: int
    SH: int
    SW: int
    PH: int
    PW: int
    DH: int
    DW: int
    G: int


def bn_variant(rt, key: tuple, bn, n_bufs: int, res=None) -> tuple[int, int]:
    """The pipeline of conv kernel ``key`` (a forward or split_sum) with batch norm ``bn`` (and the
    residual add ``res``) as its epilogue (device/trace_fusion.py)."""
    tag = ("bn",) + bn + (("res",) + res if res else ())
    if key[1] == "split_sum":
        _, _, S, has_bias = key
        return rt.pipeline(key + tag, lambda: source("split_sum", S, (), has_bias, bn=bn, res=res),
                           "w" + "r" * (n_bufs - 1))
    _, _, S, tile, has_bias, prefetch = key[:6]
    return rt.pipeline(key + tag, lambda: source("fwd", S, tile, has_bias, prefetch, bn=bn, res=res),
                       "w" + "r" * (n_bufs - 1))


_software: bool | None = None  # tests set it to run either kind of tile on any adapter


def _is_software() -> bool:
    return software_adapter(backend().rt) if _software is None else _software


def _tile(M: int, N: int, G: int) -> tuple[int, ...]:
    """The tile shape for an M x N GEMM per group (G groups)."""
    def padded(t):
        return -(-M // t[0]) * t[0] * -(-N // t[1]) * t[1]
    if _is_software():
        return min(SOFTWARE_TILES, key=padded)
    big = [t for t in GPU_BIG if G * -(-M // t[0]) * -(-N // t[1]) >= BIG_TILES_MIN]
    if big:
        return min(big, key=padded)
    return min(GPU_TILES, key=lambda t: (padded(t), t[1]))


def _words(g: Geometry) -> list[int]:
    w = [0] * 60
    w[0:18] = [g.NB, g.C, g.H, g.W, g.CO, g.OH, g.OW, g.KH, g.KW, g.SH, g.SW, g.PH, g.PW, g.DH, g.DW, g.G,
               g.C // g.G, g.CO // g.G]
    return w


def _strided(w: list[int], at: int, t) -> None:
    w[at] = t._offset & MASK
    for i, s in enumerate(t._stride):
        w[at + 1 + i] = s & MASK


def _pipe(rt, pass_: str, S: str, tile, n_bufs: int, has_bias: bool = False, split: bool = False):
    prefetch = not _is_software()
    key = ("conv", pass_, S, tile, has_bias, prefetch) + (("split",) if split else ())
    return rt.pipeline(key, lambda: source(pass_, S, tile, has_bias, prefetch, split), "w" + "r" * (n_bufs - 1))


def _run(rt, pass_: str, S: str, w: list[int], bufs: tuple[int, ...], M: int, N: int, K: int, G: int,
         has_bias: bool = False, splits: int = 1, chunk: int | None = None, split: bool = False) -> None:
    tile = _tile(M, N, G)
    w[18], w[19], w[20] = M, N, K
    w[21], w[22] = -(-M // tile[0]), -(-N // tile[1])
    w[23], w[24] = splits, (chunk if chunk is not None else K)
    rt.dispatch(_pipe(rt, pass_, S, tile, len(bufs), has_bias, split), bufs, w, w[21] * w[22] * G * splits)


def _k_splits(M: int, N: int, K: int, G: int, S: str) -> tuple[int, int]:
    """(splits, chunk) for a forward or input-gradient GEMM: split along K on GPUs when its output tiles
    are too few to fill the device (deep layers, small batches), 1 elsewhere."""
    if _is_software() or S != "f32":
        return 1, K
    tile = _tile(M, N, G)
    tiles = G * -(-M // tile[0]) * -(-N // tile[1])
    if tiles >= SPLITK_BELOW or K < 2 * SPLIT_CHUNK_MIN:
        return 1, K
    splits = min(-(-SPLIT_TARGET_GPU // tiles), K // SPLIT_CHUNK_MIN)
    chunk = -(-K // splits)
    chunk = -(-chunk // tile[2]) * tile[2]
    return -(-K // chunk), chunk


def _split_sum(rt, S: str, w: list[int], part: GPUStorage, out: GPUStorage, channels: int, pixels: int,
               bias=None) -> None:
    """out (NCHW) = the sum of the splits' partial GEMMs (+ bias): words 19 (N) and 23 (splits) as the
    GEMM's."""
    w = list(w)
    w[54], w[55] = channels, pixels
    bufs = (out.bid, part.bid)
    if bias is not None:
        w[36], w[37] = bias._offset & MASK, bias._stride[0] & MASK
        bufs += (bias._storage.bid,)
    pipe = rt.pipeline(("conv", "split_sum", S, bias is not None),
                       lambda: source("split_sum", S, (), bias is not None), "w" + "r" * (len(bufs) - 1))
    rt.dispatch(pipe, bufs, w, groups_for(channels * w[19]))


def forward(x, w, bias, g: Geometry, dtype) -> GPUStorage:
    """y = conv2d(x, w) (+ bias) into new contiguous (NB, CO, OH, OW) memory."""
    rt = backend().rt
    item = dtype.gpu_np.itemsize
    out = GPUStorage(rt, g.NB * g.CO * g.OH * g.OW * item)
    N = g.NB * g.OH * g.OW
    if N == 0 or g.CO == 0:
        return out
    w = w.contiguous()
    words = _words(g)
    _strided(words, 25, x)
    words[30] = w._offset
    bufs = (out.bid, x._storage.bid, w._storage.bid)
    if bias is not None:
        words[36], words[37] = bias._offset & MASK, bias._stride[0] & MASK
        bufs += (bias._storage.bid,)
    K = (g.C // g.G) * g.KH * g.KW
    M = g.CO // g.G
    splits, chunk = _k_splits(M, N, K, g.G, dtype.wgsl)
    if splits > 1:
        part = GPUStorage(rt, splits * g.CO * N * 4)
        ws = _with(words, 54, g.CO)
        _run(rt, "fwd", dtype.wgsl, ws, (part.bid,) + bufs[1:3], M, N, K, g.G, splits=splits, chunk=chunk,
             split=True)
        _split_sum(rt, dtype.wgsl, ws, part, out, g.CO, g.OH * g.OW, bias)
        return out
    _run(rt, "fwd", dtype.wgsl, words, bufs, M, N, K, g.G, has_bias=bias is not None)
    return out


def _with(words: list[int], at: int, value: int) -> list[int]:
    w = list(words)
    w[at] = value
    return w


def _taps(phase: int, pad: int, k: int, s: int, d: int) -> tuple[int, int, int]:
    """(first tap, tap step, tap count) of the taps kh with (phase + pad - kh*d) % s == 0."""
    taps = [t for t in range(k) if (phase + pad - t * d) % s == 0]
    if not taps:
        return 0, 1, 0
    step = s // math.gcd(s, d)
    assert taps == list(range(taps[0], k, step))
    return taps[0], step, len(taps)


def input_grad(dy, w, g: Geometry, dtype) -> GPUStorage:
    """dx (NB, C, H, W) of conv2d for dy (NB, CO, OH, OW): the transposed conv, one dispatch per phase."""
    rt = backend().rt
    item = dtype.gpu_np.itemsize
    out = GPUStorage(rt, g.NB * g.C * g.H * g.W * item)
    if g.NB * g.C * g.H * g.W == 0:
        return out
    w = w.contiguous()
    base = _words(g)
    _strided(base, 31, dy)
    base[30] = w._offset
    bufs = (out.bid, dy._storage.bid, w._storage.bid)
    phases = [(ph, pw) for ph in range(min(g.SH, g.H)) for pw in range(min(g.SW, g.W))]
    if 1 < len(phases) <= MAX_PHASES:
        _phases_at_once(rt, base, bufs, phases, g, dtype.wgsl)
        return out
    for ph in range(min(g.SH, g.H)):
        kh0, khs, nkh = _taps(ph, g.PH, g.KH, g.SH, g.DH)
        HP = -(-(g.H - ph) // g.SH)
        for pw in range(min(g.SW, g.W)):
            kw0, kws, nkw = _taps(pw, g.PW, g.KW, g.SW, g.DW)
            WP = -(-(g.W - pw) // g.SW)
            words = list(base)
            words[40:54] = [ph, pw, HP, WP, nkh, nkw, kh0, kw0, khs, kws,
                            ((ph + g.PH - kh0 * g.DH) // g.SH) & MASK, ((pw + g.PW - kw0 * g.DW) // g.SW) & MASK,
                            khs * g.DH // g.SH, kws * g.DW // g.SW]
            K = (g.CO // g.G) * nkh * nkw
            M, N = g.C // g.G, g.NB * HP * WP
            splits, chunk = _k_splits(M, N, K, g.G, dtype.wgsl) if g.SH == g.SW == 1 else (1, K)
            if splits > 1:  # one phase (stride 1): its pixels are the whole image, in NCHW order
                part = GPUStorage(rt, splits * g.C * N * 4)
                ws = _with(words, 54, g.C)
                _run(rt, "dgrad", dtype.wgsl, ws, (part.bid,) + bufs[1:], M, N, K, g.G, splits=splits, chunk=chunk,
                     split=True)
                _split_sum(rt, dtype.wgsl, ws, part, out, g.C, g.H * g.W)
                continue
            _run(rt, "dgrad", dtype.wgsl, words, bufs, M, N, K, g.G)
    return out


def _phases_at_once(rt, words: list[int], bufs, phases, g: Geometry, S: str) -> None:
    """All the stride phases of an input gradient in one dispatch: the kernel finds each workgroup's
    phase from the first workgroups of the phases (words 54...) and derives that phase's words."""
    M = g.C // g.G
    Ns = [g.NB * -(-(g.H - ph) // g.SH) * -(-(g.W - pw) // g.SW) for ph, pw in phases]
    tile = _tile(M, max(Ns), g.G)
    words = list(words) + [0] * max(0, 54 + MAX_PHASES - len(words))
    words[18], words[21], words[23], words[39] = M, -(-M // tile[0]), 1, len(phases)
    start = 0
    for p, N in enumerate(Ns):
        words[54 + p] = start
        start += g.G * words[21] * -(-N // tile[1])
    rt.dispatch(_pipe(rt, "dgrad", S, tile, len(bufs)), bufs, words, start)


def weight_grad(dy, x, g: Geometry, dtype, with_bias: bool = False) -> tuple[GPUStorage, GPUStorage | None]:
    """(dw (CO, C // G, KH, KW), db (CO,) or None) of conv2d: the reduction over batch and output pixels,
    split when long. The bias gradient (the sum of dy over batch and pixels) is one more GEMM column
    whose B entries are 1: no separate reduction."""
    rt = backend().rt
    item = dtype.gpu_np.itemsize
    Nw = (g.C // g.G) * g.KH * g.KW
    N = Nw + int(with_bias)
    out = GPUStorage(rt, g.CO * Nw * item)
    db = GPUStorage(rt, g.CO * item) if with_bias else None
    if g.CO * N == 0:
        return out, db
    M = g.CO // g.G
    K = g.NB * g.OH * g.OW
    words = _words(g)
    _strided(words, 25, x)
    _strided(words, 31, dy)
    words[38] = Nw
    tile = _tile(M, N, g.G)
    tiles = g.G * -(-M // tile[0]) * -(-N // tile[1])
    splits, chunk = 1, K
    target = SPLIT_TARGET if _is_software() else SPLIT_TARGET_GPU
    if tiles < target and K >= 2 * SPLIT_CHUNK_MIN:
        splits = min(-(-target // tiles), K // SPLIT_CHUNK_MIN)
        chunk = -(-K // splits)
        chunk = -(-chunk // tile[2]) * tile[2]
        splits = -(-K // chunk)
    direct = splits == 1 and dtype.wgsl == "f32" and not with_bias
    part = out if direct else GPUStorage(rt, splits * g.CO * N * 4)
    _run(rt, "wgrad", dtype.wgsl, words, (part.bid, dy._storage.bid, x._storage.bid), M, N, K, g.G,
         splits=splits, chunk=chunk)
    if not direct:
        pipe = rt.pipeline(("conv", "wgrad_sum", dtype.wgsl, with_bias),
                           lambda: source("wgrad_sum", dtype.wgsl, (), with_bias), "wr" + "w" * with_bias)
        rt.dispatch(pipe, (out.bid, part.bid) + ((db.bid,) if with_bias else ()), words, groups_for(g.CO * N))
    return out, db


def tail_variant(rt, key: tuple, n_bufs: int, kind: str, has_bias: bool):
    """((pipeline, layout), threads a workgroup) of the plain GEMM kernel ``key`` with a split sum
    (``kind``: wgrad_sum or split_sum) as its tail, bound after its own n_bufs buffers
    (device/trace_fusion_tail.py)."""
    _, pass_, S, tile, bias, prefetch = key[:6]
    split = len(key) > 6
    n_tail = 3 if kind == "wgrad_sum" and has_bias else 2
    mask = "w" + "r" * (n_bufs - 1) + "wr" + "w" * (n_tail - 2)
    pipe = rt.pipeline(key + ("tail", kind, has_bias),
                       lambda: source(pass_, S, tile, bias, prefetch, split, tail=(kind, has_bias, n_bufs + 1)), mask)
    TX, TY = _threads(tile)
    return pipe, TX * TY


trace_fusion.BN_EPILOGUE["conv"] = bn_variant
trace_fusion_tail.TAIL["conv"] = tail_variant
