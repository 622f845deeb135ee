"""``parameters_to_vector`` and ``vector_to_parameters``."""
from __future__ import annotations

from ...tensor import Tensor

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def _check_param_device(param: Tensor, old_device):
    if old_device is None:
        return param.device
    if param.device != old_device:
        raise TypeError("Found two parameters on different devices, this is currently not supported.")
    return old_device


def parameters_to_vector(parameters) -> Tensor:
    """All the parameters flattened and concatenated into one vector.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.nn.utils.parameters_to_vector(torch.nn.Linear(3, 2).parameters()).shape
        torch.Size([8])
    """
    from ...ops.shape import cat
    device = None
    vec = []
    for param in parameters:
        device = _check_param_device(param, device)
        vec.append(param.reshape(-1))
    return cat(vec)


def vector_to_parameters(vec: Tensor, parameters) -> None:
    """Copy consecutive slices of ``vec`` into the parameters (their ``.data`` becomes a view of ``vec``)."""
    if not isinstance(vec, Tensor):
        from ..modules.module import typename
        raise TypeError(f"expected torch.Tensor, but got: {typename(vec)}")
    device = None
    pointer = 0
    for param in parameters:
        device = _check_param_device(param, device)
        n = param.numel()
        param.data = vec[pointer:pointer + n].view_as(param).data
        pointer += n
