"""Devices: ``cpu`` (numpy, in CPython and in the browser) and ``webgpu`` (WGSL kernels).

``torch.device`` is mirrored by :class:`device`. In the browser the default device is
``webgpu`` when an adapter exists (tensors land on the GPU without ``.to()``), else ``cpu``.
``'cuda'`` is accepted as a name for the WebGPU device so that PyTorch code written for a GPU
runs unchanged.
"""
from __future__ import annotations

import sys

from . import _ffi

__all__ = ["device", "default_device", "backend_for", "set_default_device", "get_default_device"]

_ALIASES = {"cpu": "cpu", "webgpu": "webgpu", "gpu": "webgpu", "cuda": "webgpu"}


class device:
    """A device: ``device('cpu')``, ``device('webgpu')`` (``'cuda'`` is taken to mean WebGPU)."""

    __slots__ = ("type", "index")

    def __init__(self, type: "str | device", index: int | None = None):  # noqa: A002 - torch's name
        if isinstance(type, device):
            self.type, self.index = type.type, type.index
            return
        if not isinstance(type, str):
            raise TypeError(f"device(): expected a string or a device, got {type!r}")
        name = type
        if ":" in name:
            name, idx = name.split(":", 1)
            try:
                index = int(idx)
            except ValueError:
                raise RuntimeError(f"Invalid device string: '{type}'") from None
        if name not in _ALIASES:
            raise RuntimeError(f"Expected one of cpu, webgpu (or cuda, meaning WebGPU) device type at start of "
                               f"device string: {type}")
        if index is not None and index != 0 and _ALIASES[name] == "webgpu":
            raise RuntimeError(f"device {type!r}: there is one WebGPU device, index 0")
        self.type = _ALIASES[name]
        self.index = index

    def __eq__(self, other) -> bool:
        if isinstance(other, str):
            try:
                other = device(other)
            except RuntimeError:
                return False
        return isinstance(other, device) and self.type == other.type and (self.index or 0) == (other.index or 0)

    def __hash__(self) -> int:
        return hash((self.type, self.index or 0))

    def __repr__(self) -> str:
        return f"device(type='{self.type}')" if self.index is None else \
            f"device(type='{self.type}', index={self.index})"

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"


class _HostWebGPU(device):
    """The ``webgpu`` device as float64 tensors hold it (WGSL has no f64; see borch_webgpu/_dtype.py):
    the values are a numpy array and the cpu backend computes them, so every internal dispatch that
    reads ``tensor._device.type`` sees ``"cpu"``; ``Tensor.device`` reports ``WEBGPU``. Only one
    instance exists, equal to nothing but itself."""

    __slots__ = ()

    def __eq__(self, other) -> bool:
        return other is self

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return "device(type='webgpu', index=0) [float64/int8/uint8/int16, held on the host]"


CPU = device("cpu")
WEBGPU = device("webgpu", 0)
HOST64 = _HostWebGPU("cpu", 0)
_default: device | None = None


def default_device() -> device:
    global _default
    if _default is None:
        from . import webgpu

        if _ffi.IN_BROWSER and webgpu.available():
            _default = WEBGPU
        else:
            if _ffi.IN_BROWSER:
                print(f"borch_webgpu: WebGPU is not available ({webgpu.unavailable_reason()}); "
                      "tensors will live on the cpu device (numpy).", file=sys.stderr)
            _default = CPU
    return _default


def set_default_device(d) -> None:
    """Set where new tensors are created (PyTorch's ``torch.set_default_device``)."""
    global _default
    _default = canonical(d) if d is not None else None


def get_default_device() -> device:
    """The device that factory functions (``zeros``, ``tensor``, ...) use when none is given:
    ``webgpu`` in a browser with an adapter, else ``cpu``.
    """
    return default_device()


def canonical(d) -> device:
    if d is None:
        return default_device()
    if d is HOST64:
        return HOST64
    d = d if isinstance(d, device) else device(d)
    if d.type == "webgpu":
        return WEBGPU
    return CPU


def place(d: device, dtype) -> device:
    """Where a tensor of ``dtype`` made for device d lives: float64 and the 8/16-bit integers (dtype.host)
    for ``webgpu`` on the host (HOST64);
    anything else meant for the host-held device goes back to the GPU."""
    if d.type == "webgpu":
        return HOST64 if dtype.host else d
    if d is HOST64 and not dtype.host:
        return WEBGPU
    return d


def backend_for(d: device):
    if d.type == "cpu":
        from .cpu import BACKEND
        return BACKEND
    from .gpu_backend import backend
    return backend()
