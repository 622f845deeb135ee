"""Composite ops (built of several kernels) given an int64 tensor of the webgpu device held on the host
because its values leave int32 (device/int64_range.py): they run on the cpu device and their results
come back to webgpu (to the GPU when they fit int32, else held on the host)."""
from __future__ import annotations

import functools

from ..tensor import Tensor


def held(x) -> bool:
    """Whether x is an int64 tensor of the webgpu device held on the host (values past int32)."""
    return isinstance(x, Tensor) and getattr(x._storage, "held", False)


def _to(x, dev):
    if isinstance(x, Tensor):
        return x.to(dev)
    if isinstance(x, (tuple, list)):
        return type(x)(_to(v, dev) for v in x) if type(x) in (tuple, list) else type(x)(*(_to(v, dev) for v in x))
    return x


def on_host_when_held(fn):
    """Run fn on the cpu device when a tensor argument is held on the host, and move its results back."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if not any(held(a) for a in args) and not any(held(v) for v in kwargs.values()):
            return fn(*args, **kwargs)
        dev = next(a.device for a in list(args) + list(kwargs.values()) if held(a))
        out = fn(*_to(args, "cpu"), **{k: _to(v, "cpu") for k, v in kwargs.items()})
        return _to(out, dev)
    return wrapper
