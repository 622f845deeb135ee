"""``scope()`` and ``keep()``: memory that a block made is given back when the block ends.

Tensors release their GPU buffers as soon as Python drops them. What can hold them longer is a
reference cycle: an autograd graph that was never run backward (its nodes and outputs refer to
each other), kept until Python's cycle collector happens to run. ``scope()`` collects those
cycles when the block ends (only among objects the block made: older ones are frozen meanwhile,
``gc.freeze``) and flushes the GPU queue, so every buffer created inside is released
except those still reachable from outside (parameters, optimizer state, values the block
returned or stored) and those marked with ``keep(t)``.

A bad index that a WebGPU kernel found inside the block (``x.gather(0, idx)``, an embedding, a
cross-entropy target) is raised at the end of the block at the latest, as PyTorch's exception
naming the op and the line: when such an op ran since the last read of a value, the end of the
block waits for the GPU to know (device/gpu_errors.py). It is not raised over an exception that
the block is already raising (the next read raises it then).

Example::

    >>> import borch_webgpu as torch
    >>> w = torch.ones(3, requires_grad=True)
    >>> with torch.scope():
    ...     loss = (w * 2).sum()
    ...     loss.backward()
    >>> w.grad
    tensor([2., 2., 2.])
"""
from __future__ import annotations

import gc

__all__ = ["scope", "keep"]

_stack: list["scope"] = []


class scope:
    """A block whose unreachable tensors (cycles included) are freed when it ends."""

    def __init__(self):
        self.kept: list = []

    def __enter__(self) -> "scope":
        if not _stack:
            # everything older than the block moves to the collector's permanent generation, so the
            # collection at the end scans only what the block made (a full collection of a page
            # with numpy loaded costs milliseconds; this costs what the block allocated)
            gc.freeze()
        _stack.append(self)
        return self

    def __exit__(self, *exc) -> bool:
        raising = exc[0] is not None
        _stack.pop()
        # what the block kept survives it: an enclosing scope holds it now (outside any scope,
        # ordinary references decide)
        if _stack:
            _stack[-1].kept.extend(self.kept)
        self.kept = []
        gc.collect()
        if not _stack:
            gc.unfreeze()  # older objects are ordinary again: later garbage among them is still found
        from .device import webgpu as _rt
        rt = _rt._runtime
        if rt is not None:
            rt.flush()
            rt.tidy_pool()
            if not raising:
                rt.check_at_scope_end()
        return False

    def __call__(self, fn):
        import functools

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with scope():
                return fn(*args, **kwargs)
        return wrapper


def keep(t):
    """Mark ``t`` (a tensor or anything holding tensors) to survive the current scope even when nothing
    else refers to it; returns ``t``. Outside a scope it changes nothing."""
    if _stack:
        _stack[-1].kept.append(t)
    return t
