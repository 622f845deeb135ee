"""Elementwise ops whose computation dtype is complex (ops/elementwise.py's ``ew`` hands them here):
the op's numpy reference computes them, and each differentiable op has its derivative below, so that
the input gradient is ``g * conj(f'(z))`` (PyTorch's convention, ops/_complex_core.py). Ops without a
complex meaning (comparisons other than eq/ne, rounding, clamping) raise PyTorch's errors."""
from __future__ import annotations

import math

import numpy as np

from .. import _dtype
from ..tensor import Tensor
from . import _complex_core as cc

_LN2, _LN10 = math.log(2.0), math.log(10.0)

# unary: name -> f'(z, out) (holomorphic)
_UNARY_D = {
    "neg": lambda z, o: -np.ones_like(o),
    "exp": lambda z, o: o,
    "log": lambda z, o: 1 / z,
    "log2": lambda z, o: 1 / (z * _LN2),
    "log10": lambda z, o: 1 / (z * _LN10),
    "log1p": lambda z, o: 1 / (1 + z),
    "expm1": lambda z, o: o + 1,
    "sqrt": lambda z, o: 1 / (2 * o),
    "rsqrt": lambda z, o: -0.5 * o * o * o,
    "square": lambda z, o: 2 * z,
    "reciprocal": lambda z, o: -o * o,
    "sin": lambda z, o: np.cos(z),
    "cos": lambda z, o: -np.sin(z),
    "tan": lambda z, o: 1 + o * o,
    "tanh": lambda z, o: 1 - o * o,
    "sinh": lambda z, o: np.cosh(z),
    "cosh": lambda z, o: np.sinh(z),
    "sigmoid": lambda z, o: o * (1 - o),
    "exp2": lambda z, o: o * _LN2,
    "asin": lambda z, o: 1 / np.sqrt(1 - z * z),
    "acos": lambda z, o: -1 / np.sqrt(1 - z * z),
    "atan": lambda z, o: 1 / (1 + z * z),
}
# binary: name -> (df/da, df/db)(a, b, out)
_BINARY_D = {
    "add": lambda a, b, o: (1, 1),
    "sub": lambda a, b, o: (1, -1),
    "mul": lambda a, b, o: (b, a),
    "div": lambda a, b, o: (1 / b, -o / b),
    "pow": lambda a, b, o: (b * a ** (b - 1), o * np.log(a)),
    "_add_scaled": None,   # a + c * b: handled below
}
_COMPARE = {"eq", "ne", "isnan", "isinf", "isfinite", "logical_not", "logical_and", "logical_or", "logical_xor"}
# PyTorch's own words for the ops it refuses on complex inputs
_REFUSED = {
    "floor": "floor is not supported for complex inputs", "ceil": "ceil is not supported for complex inputs",
    "trunc": "trunc is not supported for complex inputs", "relu": "clamp is not supported for complex types",
    "clamp": "clamp is not supported for complex types", "clamp_min": "clamp is not supported for complex types",
    "clamp_max": "clamp is not supported for complex types", "hardtanh": "clamp is not supported for complex types",
    "maximum": "maximum not implemented for complex tensors.", "minimum": "minimum not implemented for complex tensors.",
    "fmax": "fmax not implemented for complex tensors.", "fmin": "fmin not implemented for complex tensors.",
    "sign": "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use torch.sgn instead.",
}
_KERNEL = {"floor_divide": "div_floor_cpu", "round": "round_vml_cpu", "erf": "erf_vml_cpu"}


# references that the real ops' numpy code would get wrong for complex values
_REFS = {"sigmoid": lambda z: 1 / (1 + np.exp(-z))}


def supported(name: str) -> bool:
    return name in _UNARY_D or name in _BINARY_D or name in _COMPARE or name == "where"


def ew(op, args, dev, C, R, O, params=(), out: Tensor | None = None) -> Tensor:
    """Run elementwise op (an OpDef) on operands of which one is complex; C is the complex compute dtype."""
    name = op.name
    if not supported(name):
        if name in _REFUSED:
            raise (RuntimeError if name in ("maximum", "minimum", "fmax", "fmin") else NotImplementedError)(
                _REFUSED[name])
        raise cc.not_implemented(_KERNEL.get(name, name.lstrip("_") + "_cpu"), C)
    if name in _COMPARE and not C.is_complex:   # isnan, isinf ...: compute in the operand's complex dtype
        C = next(x.dtype for x in args if isinstance(x, Tensor) and x.dtype.is_complex)
    if name == "where" and not C.is_complex:
        raise cc.not_implemented("where_cpu", next(x.dtype for x in args[1:] if getattr(x, "dtype", C).is_complex))
    arrs = [cc.values(x).astype(C.np, copy=False) if isinstance(x, Tensor) else np.asarray(x, dtype=C.np)
            for x in args]
    if name == "where":
        arrs[0] = cc.values(args[0]).astype(bool) if isinstance(args[0], Tensor) else np.asarray(bool(args[0]))
    with np.errstate(all="ignore"):
        res = np.asarray(_REFS.get(name, op.ref)(*arrs, *params))
    if name in _COMPARE:
        r = cc.make(res, _dtype.bool_, dev)
    else:
        r = cc.make(res.astype(C.np), C, dev)
        _record(name, args, arrs, params, r, res)
    if out is not None:
        from .memory import _check_result, assign
        _check_result(name, out, r)   # a complex result into a real tensor: PyTorch's cast error
        assign(out, r)
        return out
    return r


def _record(name, args, arrs, params, r, res) -> None:
    grad_name = "".join(p.capitalize() for p in name.strip("_").split("_")) + "Backward0"
    if name in _UNARY_D:
        d = _UNARY_D[name]
        cc.record(grad_name, args, [r], lambda g: (g * np.conj(d(arrs[0], res)),))
    elif name == "where":
        c = arrs[0]
        cc.record("WhereBackward0", args, [r], lambda g: (None, np.where(c, g, 0), np.where(c, 0, g)))
    elif name == "_add_scaled":   # a + c * b (add/sub with alpha)
        c = arrs[2]
        cc.record("AddBackward0", args[:2], [r], lambda g: (g, g * np.conj(c)))
    else:
        d = _BINARY_D[name]

        def back(g):
            da, db = d(arrs[0], arrs[1], res)
            return g * np.conj(da), g * np.conj(db)
        cc.record(grad_name, args[:2], [r], back)
