"""Resampling on the ``webgpu`` device: uniform words and dispatches for wgsl/upsample.wgsl.
ops/upsample.py computes the source table (PyTorch's float32 positions and weights) on the host and
calls :func:`forward` / :func:`backward` with 4-D views read in place through their strides.
Pipelines are keyed by kernel, dtype and mode; sizes travel in the uniform words."""
from __future__ import annotations

from . import kernels
from .gpu_backend import GPUStorage, backend
from .webgpu import groups_for

__all__ = ["forward", "backward", "MODES"]

MODES = {"nearest": 0, "linear": 1, "bilinear": 2}
MASK = 0xFFFFFFFF


def source(block: str, S: str, mode: int) -> str:
    head, blocks = kernels.blocks("upsample.wgsl")
    return kernels.fill(head + blocks[block], S=S, MODE=str(mode))


def _run(block: str, src, tab, out: GPUStorage, count: int, shape_in, shape_out, mode: str, dtype) -> None:
    rt = backend().rt
    N, C, H, W = shape_in
    w = [0] * 60
    w[0:6] = [count, C, H, W, shape_out[2], shape_out[3]]
    w[6] = src._offset & MASK
    for i, s in enumerate(src._stride):
        w[7 + i] = s & MASK
    S, m = dtype.wgsl, MODES[mode]
    pipe = rt.pipeline(("upsample", block, S, m), lambda: source(block, S, m), "wrr")
    rt.dispatch(pipe, (out.bid, src._storage.bid, tab._storage.bid), w, groups_for(count))


def forward(x, tab, out_hw, mode: str, dtype) -> GPUStorage:
    """(N, C, H, W) -> contiguous (N, C, OH, OW); tab: the f32 table described in upsample.wgsl."""
    N, C = x._shape[:2]
    n = N * C * out_hw[0] * out_hw[1]
    out = GPUStorage(backend().rt, n * dtype.gpu_np.itemsize)
    if n:
        _run("fwd", x, tab, out, n, x._shape, (N, C) + tuple(out_hw), mode, dtype)
    return out


def backward(dy, tab, in_hw, mode: str, dtype) -> GPUStorage:
    """dx (N, C, H, W) for dy (N, C, OH, OW)."""
    N, C = dy._shape[:2]
    n = N * C * in_hw[0] * in_hw[1]
    out = GPUStorage(backend().rt, n * dtype.gpu_np.itemsize)
    if n:
        _run("bwd", dy, tab, out, n, (N, C) + tuple(in_hw), dy._shape, mode, dtype)
    return out
