"""Device and dtype moves of a Module's tensors (``Module._apply`` and ``Module.to``'s arguments)."""
from __future__ import annotations

from ... import _dtype
from ...autograd import no_grad
from ...tensor import Tensor

__all__ = ["apply_to_tensors", "parse_to"]


def apply_to_tensors(module, fn, recurse: bool = True):
    if recurse:
        for child in module.children():
            child._apply(fn)
    for param in module._parameters.values():
        if param is None:
            continue
        with no_grad():
            applied = fn(param)
        param.data = applied  # the Parameter object stays the same (optimizers hold it)
        if param.grad is not None:
            with no_grad():
                param.grad.data = fn(param.grad)
    for key, buf in module._buffers.items():
        if buf is not None:
            module._buffers[key] = fn(buf)
    return module


def parse_to(args: tuple, kwargs: dict):
    """(device or None, dtype or None) from ``to``'s arguments, with PyTorch's error for integer dtypes."""
    from ...device import canonical, device as device_cls
    kwargs = dict(kwargs)
    dev, dt = kwargs.pop("device", None), kwargs.pop("dtype", None)
    kwargs.pop("non_blocking", None)
    kwargs.pop("memory_format", None)
    if kwargs:
        raise TypeError(f"to() received an invalid combination of arguments: unexpected {sorted(kwargs)}")
    for a in args:
        if isinstance(a, _dtype.dtype):
            dt = a
        elif isinstance(a, (str, device_cls)):
            dev = a
        elif isinstance(a, Tensor):
            dev, dt = a.device, a.dtype
        elif isinstance(a, bool) or a is None:
            continue  # non_blocking given positionally
        else:
            raise TypeError(f"to() received an invalid combination of arguments: {a!r}")
    if dt is not None and not (dt.is_floating_point or dt.is_complex):
        raise TypeError(f"nn.Module.to only accepts floating point or complex dtypes, but got desired dtype={dt}")
    if dt is not None and dt.is_complex:
        import warnings
        warnings.warn("Complex modules are a new feature under active development whose design may change, and some "
                      "modules might not work as expected when using complex tensors as parameters or buffers. Please "
                      "file an issue at https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml if a "
                      "complex module does not work as expected.", UserWarning, stacklevel=3)
    return (canonical(dev) if dev is not None else None), dt


def deepcopy_module(module, memo: dict):
    """``copy.deepcopy(module)``: parameters and buffers are cloned on their device (a WebGPU tensor's
    memory cannot go through pickling), everything else is deep-copied as usual."""
    import copy

    from ..parameter import Buffer, Parameter
    for m in module.modules():
        for t in list(m._buffers.values()) + [v for v in m.__dict__.values() if isinstance(v, Tensor)]:
            if t is None or id(t) in memo:
                continue
            if isinstance(t, (Parameter, Buffer)):
                memo[id(t)] = copy.deepcopy(t, memo)
            else:
                c = t.detach().clone()
                memo[id(t)] = c.requires_grad_(True) if t.requires_grad and t.is_leaf else c
    new = object.__new__(type(module))
    memo[id(module)] = new
    for k, v in module.__dict__.items():
        new.__dict__[k] = copy.deepcopy(v, memo)
    return new
