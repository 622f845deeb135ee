"""Whole-tensor comparisons: ``isclose`` (element-wise, a bool tensor), ``allclose`` and ``equal``
(Python bools: they read one value back from the device). Written with existing ops (eq, sub, abs,
le, isnan, isfinite), so they run on every device without kernels of their own."""
from __future__ import annotations

import builtins

from .. import _dtype, autograd
from ..tensor import Tensor
from ._registry import OpDef, methods, register
from .elementwise import _broadcast, _tname, eq, le, logical_and, logical_or
from .reduce import all as _all
from .unary import abs as _abs, isfinite, isnan

__all__ = ["isclose", "allclose", "equal"]

register(OpDef("isclose", "composite", None, None, dtype_rule="compare", tol=(0, 0),
               doc="a == b, or |a - b| finite and <= atol + rtol * |b|"))
register(OpDef("allclose", "composite", None, None, dtype_rule="compare", tol=(0, 0),
               doc="isclose(...).all(), read back as a bool"))
register(OpDef("equal", "composite", None, None, dtype_rule="compare", tol=(0, 0),
               doc="same shape and (a == b).all(), read back as a bool"))


def _tensors(op: str, input, other) -> None:
    for name, pos, x in (("input", 1, input), ("other", 2, other)):
        if not isinstance(x, Tensor):
            raise TypeError(f"{op}(): argument '{name}' (position {pos}) must be Tensor, not {type(x).__name__}")


def _check_close_args(op: str, input, other, rtol, atol, equal_nan) -> None:
    _tensors(op, input, other)
    if not isinstance(equal_nan, builtins.bool):
        raise TypeError(f"{op}(): argument 'equal_nan' must be bool, not {type(equal_nan).__name__}")
    if input.dtype is not other.dtype:
        raise RuntimeError(f"{_tname(input.dtype)} did not match {_tname(other.dtype)}")
    if not rtol >= 0:
        raise RuntimeError(f"rtol must be greater than or equal to zero, but got {rtol:g}")
    if not atol >= 0:
        raise RuntimeError(f"atol must be greater than or equal to zero, but got {atol:g}")
    _broadcast(op, [input._shape, other._shape])


def isclose(input: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08,
            equal_nan: bool = False) -> Tensor:
    """Element-wise ``input == other``, or ``|input - other| <= atol + rtol * |other|`` where that
    difference is finite; broadcasting. Both tensors must have the same dtype (PyTorch's rule);
    integers and bools are compared in float32, as in PyTorch.

    Args:
        input (Tensor): the first tensor.
        other (Tensor): the second tensor (the reference: ``rtol`` scales ``|other|``).
        rtol (float): relative tolerance (default 1e-05).
        atol (float): absolute tolerance (default 1e-08).
        equal_nan (bool): count two NaNs as close.

    Example::

        >>> torch.isclose(torch.tensor([1.0, 2.0, float("nan")]), torch.tensor([1.0, 2.1, float("nan")]))
        tensor([ True, False, False])
        >>> torch.isclose(torch.tensor([1.0, float("nan")]), torch.tensor([1.0, float("nan")]), equal_nan=True)
        tensor([True, True])
    """
    _check_close_args("isclose", input, other, rtol, atol, equal_nan)
    with autograd.no_grad():
        close = eq(input, other)
        if equal_nan and input.dtype.is_floating_point:
            close = logical_or(close, logical_and(isnan(input), isnan(other)))
        if rtol == 0 and atol == 0:  # an equality check: no false positives from the error terms
            return close
        a, b = input, other
        if not (a.dtype.is_floating_point or a.dtype.is_complex):
            a, b = a.to(_dtype.get_default_dtype()), b.to(_dtype.get_default_dtype())
        allowed = _abs(b * rtol) + atol
        actual = _abs(a - b)
        return logical_or(close, logical_and(isfinite(actual), le(actual, allowed)))


def allclose(input: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08,
             equal_nan: bool = False) -> bool:
    """``isclose(input, other, rtol, atol, equal_nan).all()`` as a Python bool (on WebGPU this
    waits for the GPU).

    Example::

        >>> torch.allclose(torch.tensor([10000.0, 1e-07]), torch.tensor([10000.1, 1e-08]))
        False
        >>> torch.allclose(torch.tensor([10000.0, 1e-08]), torch.tensor([10000.1, 1e-09]))
        True
    """
    _check_close_args("allclose", input, other, rtol, atol, equal_nan)
    return builtins.bool(_all(isclose(input, other, rtol, atol, equal_nan)).item())


def equal(input: Tensor, other: Tensor) -> bool:
    """True when both tensors have the same shape and the same values (compared after type
    promotion; NaN is never equal). A Python bool: on WebGPU this waits for the GPU.

    Example::

        >>> torch.equal(torch.tensor([1, 2]), torch.tensor([1.0, 2.0]))
        True
        >>> torch.equal(torch.tensor([1, 2]), torch.tensor([[1, 2]]))
        False
    """
    _tensors("equal", input, other)
    if input.device != other.device:
        raise RuntimeError(f"equal: Expected all tensors to be on the same device, but found at least two devices, "
                           f"{input.device} and {other.device}!")
    if tuple(input._shape) != tuple(other._shape):
        return False
    if input.numel() == 0:
        return True
    with autograd.no_grad():
        return builtins.bool(_all(eq(input, other)).item())


# ---- Tensor methods ---------------------------------------------------------------------------------
# One block on purpose: how methods are installed on Tensor is being reworked; this is the place to adapt.


# ---- the public names (bound by borch_webgpu/_bind.py) ------------------------------------------
methods(("isclose", isclose), ("allclose", allclose), ("equal", equal))
