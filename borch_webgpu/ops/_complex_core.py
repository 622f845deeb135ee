"""The machinery under complex tensors (ops/complex.py, ops/fft.py): numpy values in, tensors out, and
autograd nodes whose backward computes with numpy.

Complex values live in numpy on both devices (``dtype.host``: on ``webgpu`` held on the host, as
float64). Gradients follow PyTorch's convention for real-valued losses: the gradient of a complex
tensor is ``dL/dRe + i dL/dIm`` (the conjugate Wirtinger derivative, times 2), so for a holomorphic
``w = f(z)`` the input gradient is ``g * conj(f'(z))``, and a real input of a complex op gets the real
part of its gradient. The backward closures compute in numpy, so a graph through complex ops is
differentiated once (``create_graph=True`` through them is refused).
"""
from __future__ import annotations

import numpy as np

from .. import _dtype, autograd
from ..device.cpu import CPUStorage
from ..tensor import Tensor

__all__ = ["values", "make", "record", "grad_for", "sum_to_shape", "not_implemented", "scalar_name", "refuse_complex"]


def values(t, what: str = "a complex op") -> np.ndarray:
    """The values of tensor t as a numpy array of its API dtype (a GPU operand is read back)."""
    if not isinstance(t, Tensor):
        return np.asarray(t)
    return t.detach()._host(what)


def make(arr, dtype, device) -> Tensor:
    """A tensor of dtype on device holding arr (complex stays on the host; a real result on webgpu is uploaded)."""
    a = np.array(arr, dtype=dtype.np, order="C")   # a copy: the tensor owns its memory
    store = a.astype(dtype.storage_np) if dtype.name == "bool" else a
    return Tensor._make(CPUStorage(store.reshape(-1)), a.shape, dtype, device)


def sum_to_shape(g: np.ndarray, shape) -> np.ndarray:
    """Sum a broadcast gradient back to shape."""
    shape = tuple(shape)
    if g.shape == shape:
        return g
    lead = g.ndim - len(shape)
    if lead:
        g = g.sum(axis=tuple(range(lead)))
    dims = tuple(i for i, s in enumerate(shape) if s == 1 and g.shape[i] != 1)
    if dims:
        g = g.sum(axis=dims, keepdims=True)
    return g.reshape(shape)


def grad_for(x, g: np.ndarray):
    """The gradient tensor of input x from the numpy gradient g (None when x needs none): summed to x's
    shape, the real part for a real x, in x's dtype and on its device."""
    if not isinstance(x, Tensor) or not x.requires_grad or g is None:
        return None
    g = sum_to_shape(np.broadcast_to(g, np.broadcast_shapes(g.shape, x._shape)), x._shape)
    if not x.dtype.is_complex:
        g = np.real(g)
    return make(g, x.dtype, x.device)


def record(name: str, inputs, outputs, backward) -> None:
    """An autograd node for outputs: backward(*numpy output grads) returns numpy grads, one per input."""
    if not autograd.graph.needs_grad(*inputs):
        return
    from ..autograd.grad_mode import is_grad_enabled

    def back(*gs):
        if is_grad_enabled():
            raise RuntimeError(f"{name}: create_graph=True through complex ops is not supported here: their "
                               "backward computes in numpy (first-order gradients only)")
        arrs = [values(g) if g is not None else np.zeros(o._shape, o.dtype.np) for g, o in zip(gs, outputs)]
        raw = backward(*arrs)
        return tuple(grad_for(x, r) for x, r in zip(inputs, raw))
    autograd.record(name, list(inputs), list(outputs), back)


def scalar_name(d) -> str:
    return _dtype.SCALAR_NAMES.get(d.name, d.name)


def not_implemented(kernel: str, d) -> NotImplementedError:
    """PyTorch's error for a kernel that has no complex version: "lt_cpu" not implemented for 'ComplexFloat'."""
    return NotImplementedError(f"\"{kernel}\" not implemented for '{scalar_name(d)}'")


def refuse_complex(x, exc, message: str) -> None:
    """Raise exc(message) (``{}`` filled with PyTorch's scalar type name) when x is a complex tensor."""
    if isinstance(x, Tensor) and x.dtype.is_complex:
        raise exc(message.format(scalar_name(x.dtype)) if "{}" in message else message)
