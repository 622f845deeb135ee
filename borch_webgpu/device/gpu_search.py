"""WebGPU side of searchsorted and bucketize: the binary search kernel of wgsl/search.wgsl."""
from __future__ import annotations

from . import kernels
from .gpu_backend import GPUStorage
from .webgpu import groups_for, runtime

_NAN = {"f32": "is_nan(b) || is_nan(v)", "i32": "false", "u32": "false"}


def _source(T: str) -> str:
    head, ops = kernels.blocks("search.wgsl")
    return kernels.fill(head + ops["searchsorted"], T=T, COMMON=kernels.wgsl_file("common.wgsl"), NAN=_NAN[T])


def searchsorted(seq, vals, per_row: int, right: bool) -> GPUStorage:
    """int32 positions, one per element of the contiguous ``vals``: where each would go in its row
    (rows of ``per_row`` values) of the contiguous ``seq`` (rows of ``seq``'s last dim)."""
    rt = runtime()
    n = vals.numel()
    out = GPUStorage(rt, n * 4)
    if n == 0:
        return out
    T = seq.dtype.wgsl
    pipe = rt.pipeline(("searchsorted", T), lambda: _source(T), "wrr")
    m = seq._shape[-1] if seq.dim() else 1
    words = [n, m, per_row, 1 if right else 0, seq._offset, vals._offset]
    rt.dispatch(pipe, (out.bid, seq._storage.bid, vals._storage.bid), words, groups_for(n))
    return out
