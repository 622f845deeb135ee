"""``torch.accelerator``: the device-agnostic questions that PyTorch's own examples ask before any tensor exists
(``device = torch.accelerator.current_accelerator() if torch.accelerator.is_available() else "cpu"``). Here the
one accelerator is the WebGPU device: in a browser (or Node + Dawn) with an adapter these answer for it; in
CPython, where WebGPU never exists, they answer as a CPU-only PyTorch does."""
from __future__ import annotations

from . import webgpu as _w
from .device import device as _device

__all__ = ["is_available", "current_accelerator", "device_count", "current_device_index", "set_device_index",
           "current_device_idx", "set_device_idx", "synchronize", "device_index", "empty_cache", "memory_allocated",
           "max_memory_allocated", "memory_reserved", "reset_peak_memory_stats"]


def _need() -> None:
    if not _w.is_available():
        raise RuntimeError("Cannot access accelerator device when none is available.")


def is_available() -> bool:
    """True when the WebGPU device can be used (a browser or Node + Dawn with an adapter).

    Example::

        >>> import borch_webgpu as torch
        >>> dev = torch.accelerator.current_accelerator() if torch.accelerator.is_available() else torch.device("cpu")
        >>> torch.ones(2, device=dev).sum().item()
        2.0
    """
    return _w.is_available()


def current_accelerator(check_available: bool = False) -> _device | None:
    """``device(type='webgpu')`` when WebGPU is available, else None (what a CPU-only PyTorch returns).

    ``check_available`` is accepted for PyTorch's signature; availability is always checked here, since the
    accelerator exists only where a WebGPU adapter does.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.accelerator.current_accelerator() == (torch.device("webgpu") if torch.accelerator.is_available()
        ...                                            else None)
        True
    """
    return _device("webgpu") if _w.is_available() else None


def device_count() -> int:
    """1 when WebGPU is available (the page has one WebGPU device), else 0.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.accelerator.device_count() == int(torch.accelerator.is_available())
        True
    """
    return 1 if _w.is_available() else 0


def current_device_index() -> int:
    """0, the index of the one WebGPU device; RuntimeError when none is available (PyTorch's message).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.accelerator.current_device_index() if torch.accelerator.is_available() else 0
        0
    """
    _need()
    return 0


def _index(device) -> int:
    if device is None:
        return 0
    if isinstance(device, int):
        return device
    d = device if isinstance(device, _device) else _device(device)
    if d.type != "webgpu":
        raise ValueError(f"set_device_index: {device!r} is not the accelerator (webgpu)")
    return d.index or 0


def set_device_index(device, /) -> None:
    """Select the accelerator device: only index 0 (the one WebGPU device) exists.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.accelerator.set_device_index(0) if torch.accelerator.is_available() else None
    """
    _need()
    i = _index(device)
    if i != 0:
        raise RuntimeError(f"set_device_index: invalid device index {i}: the WebGPU device is the only one (index 0)")


current_device_idx = current_device_index
set_device_idx = set_device_index


def synchronize(device=None, /) -> None:
    """Wait for the work queued on the WebGPU device (``torch.cuda.synchronize``).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.accelerator.synchronize() if torch.accelerator.is_available() else None
    """
    _need()
    _index(device)
    _w.synchronize()


class device_index:  # noqa: N801 - PyTorch's name
    """Context manager selecting an accelerator index for its body (only 0 exists; None does nothing).

    Example::

        >>> import borch_webgpu as torch
        >>> with torch.accelerator.device_index(None):
        ...     pass
    """

    def __init__(self, device, /):
        self.device = device

    def __enter__(self):
        if self.device is not None:
            set_device_index(self.device)
        return self

    def __exit__(self, *exc) -> None:
        return None


empty_cache = _w.empty_cache
memory_allocated = _w.memory_allocated
max_memory_allocated = _w.max_memory_allocated
memory_reserved = _w.memory_reserved
reset_peak_memory_stats = _w.reset_peak_memory_stats
