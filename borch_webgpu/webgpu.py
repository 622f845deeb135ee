"""``borch_webgpu.webgpu``: the WebGPU device's public controls (like ``torch.cuda``)."""
from __future__ import annotations

from .device import _ffi
from .device import webgpu as _rt
from .device.webgpu import is_software

__all__ = ["is_available", "adapter_info", "init_async", "memory_allocated", "max_memory_allocated",
           "memory_reserved", "empty_cache", "synchronize", "stats", "reset_peak_memory_stats",
           "enable_gpu_timing", "gpu_time_ms"]


def is_available() -> bool:
    """True when a WebGPU adapter and device could be started (only ever in a browser or Node+Dawn)."""
    return _rt.available()


async def init_async() -> bool:
    """Start the device without blocking (boot code calls this); returns is_available()."""
    return await _rt.init_async() is not None


def adapter_info() -> dict:
    """The adapter as WebGPU reports it: vendor, architecture, device, description, features, limits,
    and ``is_software``: True for SwiftShader, which runs on the CPU and is not a GPU."""
    rt = _rt.runtime()
    info = dict(rt.adapter)
    info["features"] = sorted(rt.features)
    info["limits"] = dict(rt.limits)
    info["is_software"] = is_software(info)
    return info


def memory_allocated() -> int:
    """Bytes held by live tensors and by captured graphs (torch.compile, CUDA graphs) on the WebGPU device
    (pool size classes)."""
    return _rt.runtime().live_bytes if _rt.available() else 0


def max_memory_allocated() -> int:
    """The peak of memory_allocated() since start or reset_peak_memory_stats()."""
    return _rt.runtime().peak_bytes if _rt.available() else 0


def reset_peak_memory_stats() -> None:
    """Start measuring ``max_memory_allocated()`` again from the current allocation."""
    rt = _rt.runtime()
    rt.peak_bytes = rt.live_bytes


def memory_reserved() -> int:
    """Bytes held by live tensors plus buffers kept in the pool for reuse."""
    rt = _rt.runtime()
    return rt.live_bytes + rt.pooled_bytes


def empty_cache() -> None:
    """Destroy the pooled buffers that no tensor uses."""
    _rt.runtime().empty_cache()


def synchronize() -> None:
    """Submit recorded work and wait until the GPU has finished it."""
    rt = _rt.runtime()
    rt.flush()
    _ffi.wait(rt._call("sync"), "synchronize()")


def stats() -> dict:
    """Counters of the dispatch path: flushes, dispatches, submits, pipelines, bind groups, JS calls, bytes."""
    return _rt.runtime().stats()


def enable_gpu_timing(enabled: bool = True) -> bool:
    """Measure the GPU time of the work submitted from now on, with the adapter feature
    ``timestamp-query`` (off by default). Returns False, and measures nothing, on an adapter without it.

    Each flush (one compute pass) writes a begin and an end timestamp; they are read back
    asynchronously, so nothing waits for them and :func:`gpu_time_ms` trails the submitted work by
    the passes still in flight. Browsers may round timestamps (Chrome: to 100 microseconds).

    Example::

        >>> import borch_webgpu as torch
        >>> if torch.webgpu.is_available() and torch.webgpu.enable_gpu_timing():
        ...     x = torch.randn(256, 256)
        ...     y = (x @ x).sum().item()
        ...     ms = torch.webgpu.gpu_time_ms()    # a float, growing as passes are read back
    """
    return _rt.runtime().enable_timing(enabled) if _rt.available() else False


def gpu_time_ms() -> float | None:
    """Total GPU time, in milliseconds, of the compute passes measured since
    :func:`enable_gpu_timing` (0.0 before it), or None when there is no WebGPU adapter or the adapter
    lacks ``timestamp-query``."""
    if not _rt.available() or "timestamp-query" not in _rt.runtime().features:
        return None
    return float(_rt.runtime().gpu_time()["ms"])
