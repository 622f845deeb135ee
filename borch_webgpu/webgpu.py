"""``borch_webgpu.webgpu``: the WebGPU device's public controls (like ``torch.cuda``).

Errors that kernels find (an index out of range in ``gather``, ``index_select``, ``embedding``,
``x[idx]``, ``cross_entropy``'s targets, ...) are raised as PyTorch raises them on the cpu device,
naming the op and the line that called it, at the next read of a value, ``synchronize()`` or the
end of the enclosing ``torch.scope()`` at the latest. To have each one raised at its own line,
turn launch blocking on (:func:`set_launch_blocking`, or ``BORCH_WEBGPU_LAUNCH_BLOCKING=1`` in the
environment of ``python -m borch_webgpu.run``, or ``?launch_blocking=1`` on the playground's URL).
"""
from __future__ import annotations

from .device import _ffi, capture
from .device import webgpu as _rt
from .device.gpu_errors import SYNC_DEBUG_MODES
from .device.webgpu import is_software

__all__ = ["is_available", "adapter_info", "init_async", "memory_allocated", "max_memory_allocated",
           "memory_reserved", "empty_cache", "synchronize", "stats", "reset_peak_memory_stats",
           "enable_gpu_timing", "gpu_time_ms", "set_launch_blocking", "get_launch_blocking",
           "set_sync_debug_mode", "get_sync_debug_mode", "reset"]


def is_available() -> bool:
    """True when a WebGPU adapter and device could be started (only ever in a browser or Node+Dawn)."""
    return _rt.available()


async def init_async() -> bool:
    """Start the device without blocking (boot code calls this); returns is_available()."""
    return await _rt.init_async() is not None


def reset() -> None:
    """Start a new WebGPU device in place of the current one: after the device was lost (a driver reset,
    ``GPUDevice.destroy()``; reads then raise "the WebGPU device was lost"), or to free everything at once.
    The old device is destroyed when it still lives. Its tensors, captured graphs and ``torch.compile``'d
    steps are gone: using one raises a RuntimeError that says so (never another tensor's values);
    models and optimizers must be made (or loaded) again. Blocks while the new device starts (the runner,
    the playground and the lessons run code that can block).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.webgpu.reset()             # doctest: +SKIP
        >>> torch.ones(3).sum().item()       # on the new device
        3.0
    """
    _rt.reset()


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
    """Submit recorded work and wait until the GPU has finished it; raises the first error a kernel
    found in it (a bad index), as PyTorch's exception naming the op and its line."""
    rt = _rt.runtime()
    if capture.active() is not None:  # inside a capture: nothing is read back (the graph stays whole)
        rt.flush()
        _ffi.wait(rt._call("sync"), "synchronize()")
        return
    rt.check_kernel_errors("torch.webgpu.synchronize()")


def set_launch_blocking(enabled: bool = True) -> None:
    """Wait for the GPU after each op that can fail, so that its error is raised at the op's own
    line: the WebGPU device's ``CUDA_LAUNCH_BLOCKING=1``. The environment variable
    ``BORCH_WEBGPU_LAUNCH_BLOCKING=1`` turns it on when the device starts (the runner passes it in;
    the playground's ``?launch_blocking=1`` sets it). Off by default: each such op then costs a wait
    for the GPU. Inside a captured graph (``torch.compile``, ``torch.cuda.graph``) nothing waits;
    each replay of a graph holding such ops is checked instead.

    Only the ops that can fail wait (the index kernels: ``gather``, ``scatter``, ``index_select``,
    ``index_add``, ``embedding``, ``x[idx]``, ``x[idx] = v``, ``take``, ``one_hot``, the targets of
    ``nll_loss`` / ``cross_entropy``, ``binary_cross_entropy``'s range check).

    Example::

        >>> import borch_webgpu as torch
        >>> if torch.webgpu.is_available():
        ...     torch.webgpu.set_launch_blocking(True)
        ...     try:
        ...         torch.arange(3.).gather(0, torch.tensor([5]))   # raises on this line
        ...     except RuntimeError as e:
        ...         print(e)     # index 5 is out of bounds for dimension 0 with size 3 (gather at ...)
        ...     torch.webgpu.set_launch_blocking(False)
    """
    _rt.runtime().launch_blocking = bool(enabled)


def get_launch_blocking() -> bool:
    """Whether launch blocking is on (see :func:`set_launch_blocking`)."""
    return _rt.runtime().launch_blocking


def set_sync_debug_mode(debug_mode: int | str) -> None:
    """Set the debug mode for WebGPU synchronizing operations (``torch.cuda.set_sync_debug_mode``).

    Args:
        debug_mode (str or int): if "default" or 0, don't error or warn on synchronizing operations,
            if "warn" or 1, warn on synchronizing operations, if "error" or 2, error out synchronizing
            operations. Synchronizing: reading a value (``.item()``, ``.tolist()``, ``print(t)``),
            ``synchronize()``, and the end of a ``torch.scope()`` that checks the ops that can fail.

    Example::

        >>> import borch_webgpu as torch
        >>> if torch.webgpu.is_available():
        ...     torch.webgpu.set_sync_debug_mode("warn")
        ...     _ = torch.ones(2).sum().item()   # UserWarning: called a synchronizing WebGPU operation
        ...     torch.webgpu.set_sync_debug_mode(0)
    """
    if isinstance(debug_mode, str):
        if debug_mode not in SYNC_DEBUG_MODES:
            raise RuntimeError("invalid value of debug_mode, expected one of `default`, `warn`, `error`")
        debug_mode = SYNC_DEBUG_MODES[debug_mode]
    if debug_mode not in (0, 1, 2):
        raise RuntimeError(f"invalid value of debug_mode, expected one of 0, 1, 2 (got {debug_mode!r})")
    _rt.runtime().sync_debug_mode = int(debug_mode)


def get_sync_debug_mode() -> int:
    """Return current value of debug mode for WebGPU synchronizing operations (0, 1 or 2)."""
    return _rt.runtime().sync_debug_mode


def stats() -> dict:
    """Counters of the dispatch path: flushes, dispatches, submits, pipelines, bind groups, JS calls, bytes,
    and of the ops that can fail: ``fallible_dispatches`` recorded, ``error_sites`` (op and line) known,
    ``promotions`` (int64 results past int32 moved to the host at their first read)."""
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
