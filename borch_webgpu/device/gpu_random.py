"""WebGPU side of the random ops: wgsl/random.wgsl."""
from __future__ import annotations

from . import kernels
from .capture import u32_word
from .gpu_backend import GPUStorage, f32_bits
from .webgpu import groups_for, runtime


def fill(mode: str, storage, offset: int, dtype, n: int, key: int, start: int, a: float, b: float):
    """Write n draws into storage at offset (a new storage when None); returns the storage."""
    rt = runtime()
    if storage is None:
        storage = GPUStorage(rt, n * dtype.gpu_np.itemsize)
    if n == 0:
        return storage
    T = dtype.wgsl

    def source():
        head, modes = kernels.blocks("random.wgsl")
        return kernels.fill(head + modes[mode], T=T)
    pipe = rt.pipeline(("random", mode, T), source, "w")
    if mode == "randint":  # low as i32 bits, range as u32
        words = [n, u32_word(key), u32_word(start), offset, int(a) & 0xFFFFFFFF, int(b - a) & 0xFFFFFFFF]
    else:
        words = [n, u32_word(key), u32_word(start), offset, f32_bits(a), f32_bits(b)]
    rt.dispatch(pipe, (storage.bid,), words, groups_for(n))
    return storage
