"""Type queries on tensors and numbers: ``torch.result_type``, ``is_tensor``, ``is_floating_point``,
``is_inference``
(the dtype-only ones, ``promote_types`` and ``can_cast``, are in _dtype.py, below Tensor)."""
from __future__ import annotations

import builtins
import numbers

import numpy as np

from ..tensor import Tensor, _InferenceVersion
from .._dtype import dtype, result_type_of
from ._registry import api, methods

__all__ = ["result_type", "is_tensor", "is_floating_point", "is_inference"]


def result_type(tensor, other) -> dtype:
    """The dtype an arithmetic op on ``tensor`` and ``other`` (tensors or Python numbers) returns:
    dimensioned tensors decide within a kind, then 0-d tensors, then Python numbers, which only
    lift the kind (a float number gives the default dtype).

    Example::

        >>> torch.result_type(torch.tensor([1, 2], dtype=torch.int32), 1.0)
        torch.float32
        >>> torch.result_type(torch.tensor([1, 2], dtype=torch.int32), torch.tensor(5))
        torch.int32
    """
    T = Tensor
    if not builtins.all(isinstance(x, (T, numbers.Real, np.bool_)) for x in (tensor, other)):
        got = ", ".join("Tensor" if isinstance(x, T) else type(x).__name__ for x in (tensor, other))
        raise TypeError(f"result_type() received an invalid combination of arguments - got ({got}), but expected "
                        "one of:\n * (Tensor tensor, Tensor other)\n * (Number scalar, Tensor tensor)\n"
                        " * (Tensor tensor, Number other)\n * (Number scalar1, Number scalar2)\n")
    ts = [x for x in (tensor, other) if isinstance(x, T)]
    scalars = []
    for x in (tensor, other):
        if not isinstance(x, T):
            scalars.append(builtins.bool(x) if isinstance(x, (builtins.bool, np.bool_)) else
                           builtins.int(x) if isinstance(x, numbers.Integral) else builtins.float(x))
    return result_type_of([t.dtype for t in ts if t.dim() > 0], [t.dtype for t in ts if t.dim() == 0], scalars)


def is_tensor(obj) -> bool:
    """True when ``obj`` is a tensor (a ``Tensor`` or a subclass such as ``nn.Parameter``).

    Example::

        >>> torch.is_tensor(torch.ones(2)), torch.is_tensor([1.0])
        (True, False)
    """
    return isinstance(obj, Tensor)


def is_floating_point(input) -> bool:
    """True when ``input``'s dtype is a floating-point one (float32, float16).

    Example::

        >>> torch.is_floating_point(torch.ones(2)), torch.is_floating_point(torch.arange(2))
        (True, False)
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"is_floating_point(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    return input.dtype.is_floating_point


def is_inference(input) -> bool:
    """True for a tensor made inside ``torch.inference_mode()`` (and for views of one, wherever they are
    taken); False for every other tensor, including views of ordinary tensors taken inside the mode and
    results computed from an inference tensor outside it (``Tensor.is_inference()`` too).

    Example::

        >>> x = torch.ones(2)
        >>> with torch.inference_mode():
        ...     y = x * 2
        >>> y.is_inference(), y[0].is_inference(), (y + 1).is_inference(), torch.is_inference(x)
        (True, True, False, False)
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"is_inference(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    return type(input._ver) is _InferenceVersion


api("is_inference", is_inference)
methods(("result_type", result_type), ("is_tensor", is_tensor), ("is_floating_point", is_floating_point),
        tensor=False)
