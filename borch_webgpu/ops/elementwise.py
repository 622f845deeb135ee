"""Elementwise arithmetic with broadcasting and Python scalars on either side."""
from __future__ import annotations

import builtins
import numbers

import numpy as np

from .. import _dtype
from ..device import backend_for
from ..tensor import Tensor
from ._registry import OpDef, register

__all__ = ["add", "sub", "mul", "div", "subtract", "multiply", "divide", "true_divide", "broadcast_shapes"]


def broadcast_shapes(*shapes) -> tuple[int, ...]:
    """The shape that all ``shapes`` broadcast to (PyTorch's rules, its error text)."""
    ndim = max((len(s) for s in shapes), default=0)
    out = [1] * ndim
    for s in shapes:
        for i, n in enumerate(s, start=ndim - len(s)):
            if out[i] == 1:
                out[i] = n
            elif n != 1 and n != out[i]:
                raise RuntimeError(f"shape mismatch: objects cannot be broadcast to a single shape. Mismatch is "
                                   f"between {list(shapes[0])} and {list(s)}")
    return tuple(out)


def _binary_shape(op: str, a: tuple, b: tuple) -> tuple[int, ...]:
    ndim = max(len(a), len(b))
    pa, pb = (1,) * (ndim - len(a)) + a, (1,) * (ndim - len(b)) + b
    out = []
    for i, (x, y) in enumerate(zip(pa, pb)):
        if x != y and x != 1 and y != 1:
            raise RuntimeError(f"{op}: The size of tensor a ({x}) must match the size of tensor b ({y}) at "
                               f"non-singleton dimension {i}")
        out.append(y if x == 1 else x)
    return tuple(out)


def _scalar(x) -> bool:
    return isinstance(x, (numbers.Number, np.generic)) and not isinstance(x, Tensor)


def _py_scalar(x):
    if isinstance(x, (builtins.bool, np.bool_)):
        return builtins.bool(x)
    if isinstance(x, numbers.Integral):
        return builtins.int(x)
    if isinstance(x, numbers.Real):
        return builtins.float(x)
    raise TypeError(f"unsupported scalar type {type(x).__name__}")


def _operands(op: str, a, b):
    """Validate operands; returns (tensors or scalars, device)."""
    dev = None
    ts = [x for x in (a, b) if isinstance(x, Tensor)]
    if not ts:
        raise TypeError(f"{op}(): expected at least one Tensor argument")
    devs = {t.device for t in ts}
    if len(devs) > 1:
        # PyTorch lets a 0-d cpu tensor join a GPU op as a scalar
        gpu = [t for t in ts if t.device.type != "cpu"]
        dev = gpu[0].device
        fixed = []
        for x in (a, b):
            if isinstance(x, Tensor) and x.device != dev:
                if x.dim() != 0:
                    raise RuntimeError(f"{op}: Expected all tensors to be on the same device, but found at least "
                                       f"two devices, {gpu[0].device} and {x.device}!")
                x = x.item()
            fixed.append(x)
        a, b = fixed
    else:
        dev = ts[0].device
    out = []
    for x in (a, b):
        if isinstance(x, Tensor):
            out.append(x)
        elif _scalar(x):
            out.append(_py_scalar(x))
        else:
            raise TypeError(f"{op}(): unsupported operand type {type(x).__name__}")
    return out, dev


def _promote(args) -> _dtype.dtype:
    dims = [x.dtype for x in args if isinstance(x, Tensor) and x.dim() > 0]
    zero = [x.dtype for x in args if isinstance(x, Tensor) and x.dim() == 0]
    scal = [x for x in args if not isinstance(x, Tensor)]
    return _dtype.result_type_of(dims, zero, scal)


def _fix_scalar(x, C):
    if isinstance(x, Tensor):
        return x
    if C.category == 2:
        return builtins.float(x)
    if C.category == 1:
        v = builtins.int(x)
        if not -(2 ** 31) <= v < 2 ** 31:
            raise OverflowError(f"scalar {v} does not fit in int32 (int64 is held as int32 on WebGPU)")
        return v
    return builtins.bool(x)


def binary(op: OpDef, a, b) -> Tensor:
    args, dev = _operands(op.name, a, b)
    res = _promote(args)
    if op.name == "sub" and any((x.dtype.name == "bool") if isinstance(x, Tensor) else isinstance(x, builtins.bool)
                                for x in args):
        if all((x.dtype.name == "bool") if isinstance(x, Tensor) else isinstance(x, builtins.bool) for x in args):
            raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. "
                               "Use the `^` or `logical_xor()` operator instead.")
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. "
                           "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")
    if op.dtype_rule == "true_div":
        out_t = res if res.is_floating_point else _dtype.float32
        C = R = out_t
    elif op.dtype_rule == "promote":
        if res.name == "bool":
            C = R = _dtype.int32
        else:
            C = R = res
        out_t = res
    else:  # pragma: no cover - rules are fixed per op
        raise AssertionError(op.dtype_rule)
    args = [_fix_scalar(x, C) for x in args]
    shape = _binary_shape(op.name, *(x._shape if isinstance(x, Tensor) else () for x in args))
    storage = backend_for(dev).elementwise(op, args, C, R, shape, out_t)
    return Tensor._make(storage, shape, out_t, dev)


ADD = register(OpDef("add", "binary", ("ops_binary.wgsl", "add"), np.add, tol=(1e-6, 1e-6)))
SUB = register(OpDef("sub", "binary", ("ops_binary.wgsl", "sub"), np.subtract, tol=(1e-6, 1e-6)))
MUL = register(OpDef("mul", "binary", ("ops_binary.wgsl", "mul"), np.multiply, tol=(1e-6, 1e-6)))
DIV = register(OpDef("div", "binary", ("ops_binary.wgsl", "div"), np.true_divide, dtype_rule="true_div",
                     tol=(1e-6, 1e-6)))


def add(input, other, *, alpha=1) -> Tensor:
    """``input + alpha * other``, broadcasting; either side may be a Python scalar."""
    if alpha != 1:
        other = mul(other, alpha) if isinstance(other, Tensor) else other * alpha
    return binary(ADD, input, other)


def sub(input, other, *, alpha=1) -> Tensor:
    """``input - alpha * other``, broadcasting; either side may be a Python scalar."""
    if alpha != 1:
        other = mul(other, alpha) if isinstance(other, Tensor) else other * alpha
    return binary(SUB, input, other)


def mul(input, other) -> Tensor:
    """``input * other``, broadcasting; either side may be a Python scalar."""
    return binary(MUL, input, other)


def div(input, other, *, rounding_mode=None) -> Tensor:
    """``input / other`` (true division: integers give float32), broadcasting."""
    if rounding_mode is not None:
        raise NotImplementedError("div: rounding_mode is not implemented yet")
    return binary(DIV, input, other)


subtract, multiply, divide, true_divide = sub, mul, div, div


def _method(name, fn):
    setattr(Tensor, name, fn)


_method("add", lambda self, other, *, alpha=1: add(self, other, alpha=alpha))
_method("sub", lambda self, other, *, alpha=1: sub(self, other, alpha=alpha))
_method("mul", lambda self, other: mul(self, other))
_method("div", lambda self, other, *, rounding_mode=None: div(self, other, rounding_mode=rounding_mode))
_method("__add__", lambda self, other: binary(ADD, self, other))
_method("__radd__", lambda self, other: binary(ADD, other, self))
_method("__sub__", lambda self, other: binary(SUB, self, other))
_method("__rsub__", lambda self, other: binary(SUB, other, self))
_method("__mul__", lambda self, other: binary(MUL, self, other))
_method("__rmul__", lambda self, other: binary(MUL, other, self))
_method("__truediv__", lambda self, other: binary(DIV, self, other))
_method("__rtruediv__", lambda self, other: binary(DIV, other, self))
