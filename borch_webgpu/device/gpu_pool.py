"""Pooling on the ``webgpu`` device: uniform words and dispatches for wgsl/pool.wgsl (max with
indices, average, adaptive windows, and the gathers that are their gradients). ops/pooling.py calls
these with 4-D views (N, C, H, W) read in place through their strides and a :class:`PoolGeometry`.
Pipelines are keyed by kernel, dtype and the adaptive flag; sizes travel in the uniform words."""
from __future__ import annotations

from dataclasses import dataclass

from . import kernels
from .gpu_backend import GPUStorage, backend
from .webgpu import groups_for

__all__ = ["PoolGeometry", "max_forward", "max_backward", "avg_forward", "avg_backward"]

MASK = 0xFFFFFFFF


@dataclass(frozen=True)
class PoolGeometry:
    """Pooling of (N, C, H, W) into (N, C, OH, OW): windows of KH x KW with stride, top/left padding
    and dilation, or PyTorch's adaptive windows (adaptive=True). Average pooling also has
    count_include_pad and divisor_override (0: none)."""
    N: int
    C: int
    H: int
    W: int
    OH: int
    OW: int
    KH: int = 1
    KW: int = 1
    SH: int = 1
    SW: int = 1
    PH: int = 0
    PW: int = 0
    DH: int = 1
    DW: int = 1
    adaptive: bool = False
    count_include_pad: bool = True
    divisor: int = 0


_LOWEST = {"f32": "-bitcast<f32>(0x7f800000u | pu(63u))", "f16": "S(-bitcast<f32>(0x7f800000u | pu(63u)))",
           "i32": "i32(-2147483648)"}


def source(block: str, S: str, adaptive: bool) -> str:
    head, blocks = kernels.blocks("pool.wgsl")
    if S == "i32":
        update = "if (v > best) { best = v; at = pos; }"
    else:
        update = ("if (is_nan(f32(v))) { best = v; at = pos; nan_seen = true; } "
                  "else if (!nan_seen && v > best) { best = v; at = pos; }")
    return kernels.fill(head + blocks[block], S=S, A="i32" if S == "i32" else "f32", ADAPTIVE=str(adaptive).lower(),
                        LOWEST=_LOWEST[S], UPDATE=update)


def _words(g: PoolGeometry, count: int) -> list[int]:
    w = [0] * 60
    w[0:14] = [count, g.C, g.H, g.W, g.OH, g.OW, g.KH, g.KW, g.SH, g.SW, g.PH, g.PW, g.DH, g.DW]
    w[24], w[25] = int(g.count_include_pad), g.divisor & MASK
    return w


def _strided(w: list[int], at: int, t) -> None:
    w[at] = t._offset & MASK
    for i, s in enumerate(t._stride):
        w[at + 1 + i] = s & MASK


def _run(block: str, S: str, adaptive: bool, words: list[int], bufs: tuple[int, ...], mask: str) -> None:
    rt = backend().rt
    pipe = rt.pipeline(("pool", block, S, adaptive), lambda: source(block, S, adaptive), mask)
    rt.dispatch(pipe, bufs, words, groups_for(words[0]))


def max_forward(x, g: PoolGeometry, dtype) -> tuple[GPUStorage, GPUStorage]:
    """(values, int32 indices into each H*W plane), both contiguous (N, C, OH, OW)."""
    rt = backend().rt
    n = g.N * g.C * g.OH * g.OW
    out = GPUStorage(rt, n * dtype.gpu_np.itemsize)
    idx = GPUStorage(rt, n * 4)
    if n:
        w = _words(g, n)
        _strided(w, 14, x)
        _run("max_fwd", dtype.wgsl, g.adaptive, w, (out.bid, idx.bid, x._storage.bid), "wwr")
    return out, idx


def max_backward(dy, idx, g: PoolGeometry, dtype) -> GPUStorage:
    """dx (N, C, H, W): dy gathered back to the saved argmax positions (idx: contiguous int32)."""
    rt = backend().rt
    n = g.N * g.C * g.H * g.W
    out = GPUStorage(rt, n * dtype.gpu_np.itemsize)
    if n:
        assert idx._offset == 0 and idx.is_contiguous()
        w = _words(g, n)
        _strided(w, 19, dy)
        _run("max_bwd", dtype.wgsl, g.adaptive, w, (out.bid, dy._storage.bid, idx._storage.bid), "wrr")
    return out


def avg_forward(x, g: PoolGeometry, dtype) -> GPUStorage:
    rt = backend().rt
    n = g.N * g.C * g.OH * g.OW
    out = GPUStorage(rt, n * dtype.gpu_np.itemsize)
    if n:
        w = _words(g, n)
        _strided(w, 14, x)
        _run("avg_fwd", dtype.wgsl, g.adaptive, w, (out.bid, x._storage.bid), "wr")
    return out


def avg_backward(dy, g: PoolGeometry, dtype) -> GPUStorage:
    rt = backend().rt
    n = g.N * g.C * g.H * g.W
    out = GPUStorage(rt, n * dtype.gpu_np.itemsize)
    if n:
        w = _words(g, n)
        _strided(w, 19, dy)
        _run("avg_bwd", dtype.wgsl, g.adaptive, w, (out.bid, dy._storage.bid), "wr")
    return out
