"""Checks of tensor values that must not stop the GPU.

``device_check(ok, exc, message)`` raises ``exc(message)`` unless every element of the bool tensor
``ok`` is True. On the cpu device that happens at once; on WebGPU the check is a one-element read by
the indexing kernel at index ``int(not ok.all())``, which records the error on the GPU, and the
runtime raises it at the next read of any value, at ``torch.webgpu.synchronize()``, or by the end of the
enclosing ``torch.scope()`` at the latest (as CUDA's device-side asserts do, with PyTorch's exception
type and message, naming the op and the user's line). Nothing else waits for the GPU.
"""
from __future__ import annotations

from .. import _dtype, autograd
from ..tensor import Tensor

__all__ = ["device_check", "host_int", "host_values"]


def device_check(ok: Tensor, exc: type, message: str) -> None:
    from .creation import zeros
    from .indexing import _take
    with autograd.no_grad():
        bad = (~ok.reshape(-1)).any().to(_dtype.int64).reshape(1)
        _take(zeros(1, device=ok.device), 0, bad, (1,), (1,), exc, message.replace("{", "{{").replace("}", "}}"))


def host_int(t: Tensor, what: str) -> int:
    """The value of a one-element integer tensor as a Python int (on WebGPU this waits for the GPU: for
    sizes that depend on the data, as in nonzero or masked_select)."""
    return int(t.detach()._host(what).reshape(()).item())


def host_values(t: Tensor, what: str):
    """A small tensor's values as a numpy array, read in one go (on WebGPU this waits for the GPU)."""
    return t.detach()._host(what).reshape(-1)
