"""``torch.nn.utils.skip_init``: a module made without running its parameters' initialisation code."""
from __future__ import annotations

import inspect

__all__ = ["skip_init"]


def skip_init(module_cls, *args, **kwargs):
    """Instantiate ``module_cls(*args, **kwargs)`` on ``kwargs["device"]`` (default ``"cpu"``, as PyTorch).
    PyTorch builds it on its ``meta`` device and leaves the parameters uninitialised (any values, as
    ``torch.empty``); borch_webgpu has no ``meta`` device, so the module's own initialisation runs: the
    values are its default ones, which the contract allows. The checks and their errors are PyTorch's.

    Example::

        >>> m = torch.nn.utils.skip_init(torch.nn.Linear, 5, 1)
        >>> m.weight.shape, m.weight.device.type
        (torch.Size([1, 5]), 'cpu')
    """
    from ..modules.module import Module
    if not (isinstance(module_cls, type) and issubclass(module_cls, Module)):
        raise RuntimeError(f"Expected a Module; got {module_cls}")
    if "device" not in inspect.signature(module_cls).parameters:
        raise RuntimeError("Module must support a 'device' arg to skip initialization")
    final_device = kwargs.pop("device", "cpu")
    return module_cls(*args, device=final_device, **kwargs)
