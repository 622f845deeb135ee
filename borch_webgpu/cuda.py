"""``torch.cuda`` for code written for a GPU: here the GPU is the WebGPU device (``'cuda'`` means it)."""
from __future__ import annotations

import sys as _sys

from . import webgpu as _w
from .device.gpu_errors import OutOfMemoryError
from ._legacy import cuda_types as _cuda_types
from .amp import _cuda_amp as amp  # torch.cuda.amp: the deprecated autocast and GradScaler
from ._cuda_graphs import (CUDAGraph, Stream, current_stream, default_stream, graph, graph_pool_handle,
                           make_graphed_callables, stream)

__all__ = ["is_available", "device_count", "current_device", "get_device_name", "synchronize", "manual_seed",
           "manual_seed_all", "memory_allocated", "max_memory_allocated", "memory_reserved", "empty_cache",
           "reset_peak_memory_stats", "CUDAGraph", "graph", "make_graphed_callables", "Stream", "stream",
           "current_stream", "default_stream", "graph_pool_handle", "set_sync_debug_mode", "get_sync_debug_mode",
           "FloatTensor", "DoubleTensor", "HalfTensor", "LongTensor", "IntTensor", "BoolTensor", "ShortTensor",
           "CharTensor", "ByteTensor", "amp", "OutOfMemoryError"]

# the legacy typed constructors (torch.cuda.FloatTensor(2), isinstance(t, torch.cuda.FloatTensor))
globals().update(_cuda_types())
# so that ``from torch.cuda.amp import GradScaler`` imports (also through the ``import torch`` alias, which
# needs this module to look like a package: an empty __path__ finds nothing else)
_sys.modules[__name__ + ".amp"] = amp
__path__: list = []


def is_available() -> bool:
    """True when WebGPU is available (tensors on 'cuda' then live on the WebGPU device)."""
    return _w.is_available()


def device_count() -> int:
    """1 when WebGPU is available (the one adapter the browser gives), else 0."""
    return 1 if _w.is_available() else 0


def current_device() -> int:
    """Always 0: the page has one WebGPU device."""
    return 0


def get_device_name(device=None) -> str:
    """The adapter as ``vendor / architecture / device`` (e.g. ``google / swiftshader`` for SwiftShader)."""
    info = _w.adapter_info()
    return " / ".join(x for x in (info.get("vendor"), info.get("architecture"), info.get("device")) if x)


def manual_seed(seed: int) -> None:
    """Seed the generator (one generator serves both devices, so this is ``torch.manual_seed``)."""
    from .ops.random import manual_seed as _seed
    _seed(seed)


manual_seed_all = manual_seed
synchronize = _w.synchronize
memory_allocated = _w.memory_allocated
max_memory_allocated = _w.max_memory_allocated
memory_reserved = _w.memory_reserved
empty_cache = _w.empty_cache
reset_peak_memory_stats = _w.reset_peak_memory_stats
set_sync_debug_mode = _w.set_sync_debug_mode
get_sync_debug_mode = _w.get_sync_debug_mode
