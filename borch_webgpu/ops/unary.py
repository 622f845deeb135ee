"""Unary elementwise ops and activations, one table row each: WGSL block, numpy reference,
dtype rule, backward (written with ops, so it differentiates again) and tolerance."""
from __future__ import annotations

import builtins
import math
import numbers

import numpy as np

from .. import _dtype
from ..tensor import Tensor
from ._registry import OpDef, api, methods, register
from .elementwise import _out, ew, where

__all__ = ["neg", "negative", "abs", "absolute", "sign", "exp", "exp2", "log", "log2", "log10", "log1p", "expm1",
           "sqrt", "rsqrt", "square", "reciprocal", "sin", "cos", "tan", "asin", "acos", "atan", "arcsin", "arccos",
           "arctan", "tanh", "sinh", "cosh", "sigmoid", "relu", "floor", "ceil", "round", "trunc", "fix", "frac",
           "isnan", "isinf", "isfinite", "logical_not", "nan_to_num", "clamp", "clip", "clamp_min",
           "clamp_max", "erf",
           "relu6", "leaky_relu", "elu", "selu", "gelu", "silu", "mish", "softplus", "hardtanh", "hardswish",
           "hardsigmoid", "UNARY"]

UNARY: dict[str, OpDef] = {}


def _np_erf(x):
    import math as m
    ft = np.float64 if np.asarray(x).dtype == np.float64 else np.float32
    return np.vectorize(m.erf, otypes=[ft])(x) if np.asarray(x).size else np.asarray(x, ft)


def _sig(x):
    with np.errstate(over="ignore"):
        return np.where(x >= 0, 1 / (1 + np.exp(-np.abs(x))), np.exp(-np.abs(x)) / (1 + np.exp(-np.abs(x))))


def _softplus(x, beta=1.0, threshold=20.0):
    with np.errstate(over="ignore"):
        return np.where(x * beta > threshold, x, np.log1p(np.exp(x * beta)) / beta).astype(x.dtype)


def _u(name, ref, backward=None, rule="float", tol=(1e-6, 1e-6), block=None, **extra):
    op = register(OpDef(name, "unary", ("ops_unary.wgsl", block or name), ref, dtype_rule=rule, backward=backward,
                        tol=tol, extra=extra))
    UNARY[name] = op
    return op


def _zero(g, a, out, *p):
    return (g * 0,)


# name, numpy reference, backward(g, x, out, *params), dtype rule, tolerance
_u("neg", np.negative, lambda g, a, out: (-g,), rule="same", tol=(0, 0))
_u("abs", np.abs, lambda g, a, out: (g * sign(a),), rule="same", tol=(0, 0))
_u("sign", lambda a: np.nan_to_num(np.sign(a), nan=0.0).astype(a.dtype), _zero, rule="same", tol=(0, 0))
_u("exp", np.exp, lambda g, a, out: (g * out,), tol=(2e-6, 1e-30), saves_out=True)
_u("exp2", np.exp2, lambda g, a, out: (g * out * math.log(2.0),), tol=(2e-6, 1e-30), saves_out=True)
_u("log", np.log, lambda g, a, out: (g / a,), tol=(1e-6, 1e-6))
_u("log2", np.log2, lambda g, a, out: (g / (a * math.log(2.0)),), tol=(1e-6, 1e-6))
_u("log10", np.log10, lambda g, a, out: (g / (a * math.log(10.0)),), tol=(1e-6, 1e-6))
_u("log1p", np.log1p, lambda g, a, out: (g / (a + 1),), tol=(2e-6, 1e-7))
_u("expm1", np.expm1, lambda g, a, out: (g * (out + 1),), tol=(2e-6, 1e-7), saves_out=True)
_u("sqrt", np.sqrt, lambda g, a, out: (g / (2 * out),), tol=(1e-6, 1e-7), saves_out=True)
_u("rsqrt", lambda a: 1 / np.sqrt(a), lambda g, a, out: (-0.5 * g * out * out * out,), tol=(2e-6, 1e-7),
   saves_out=True)
_u("square", np.square, lambda g, a, out: (g * 2 * a,), rule="same", tol=(1e-6, 0))
_u("reciprocal", np.reciprocal, lambda g, a, out: (-g * out * out,), tol=(2e-6, 0), saves_out=True)
_u("sin", np.sin, lambda g, a, out: (g * cos(a),), tol=(2e-6, 2e-6))
_u("cos", np.cos, lambda g, a, out: (-g * sin(a),), tol=(2e-6, 2e-6))
_u("tan", np.tan, lambda g, a, out: (g * (1 + out * out),), tol=(1e-5, 2e-6), saves_out=True)
_u("asin", np.arcsin, lambda g, a, out: (g * rsqrt(1 - a * a),), tol=(2e-6, 2e-6))
_u("acos", np.arccos, lambda g, a, out: (-g * rsqrt(1 - a * a),), tol=(2e-6, 2e-6))
_u("atan", np.arctan, lambda g, a, out: (g / (1 + a * a),), tol=(2e-6, 2e-6))
_u("tanh", np.tanh, lambda g, a, out: (g * (1 - out * out),), tol=(2e-6, 1e-6), saves_out=True)
_u("sinh", np.sinh, lambda g, a, out: (g * cosh(a),), tol=(2e-6, 1e-6))
_u("cosh", np.cosh, lambda g, a, out: (g * sinh(a),), tol=(2e-6, 1e-6))
_u("sigmoid", _sig, lambda g, a, out: (g * out * (1 - out),), tol=(2e-6, 1e-7), saves_out=True)
# relu's backward in one kernel (PyTorch's threshold_backward: the gradient where the result is > 0 or NaN)
RELU_BACKWARD = register(OpDef(
    "_relu_backward", "binary", ("ops_binary.wgsl", "threshold_backward"),
    lambda g, r: np.where(r <= 0, np.zeros_like(g), g), tol=(0, 0), extra={"golden": "relu", "grad_name": "ThresholdBackwardBackward0"},
    backward=lambda gg, g, r, out: (ew(RELU_BACKWARD, gg, r.detach()), None)))
# threshold_backward(a + b, c): an add of gradients and relu's backward after it, fused over a captured trace
register(OpDef("_add_relu_backward", "ternary", ("ops_binary.wgsl", "add_threshold_backward"),
               lambda a, b, c: np.where(c <= 0, np.zeros_like(a), a + b), tol=(0, 0), extra={"golden": "relu"}))
# relu(a + b): the kernel an add takes when an in-place relu of its result follows (device/gpu_backend.py)
register(OpDef("_add_relu", "binary", ("ops_binary.wgsl", "add_relu"), lambda a, b: np.maximum(a + b, 0),
               tol=(0, 0), extra={"golden": "relu"}))
_u("relu", lambda a: np.where(a < 0, 0, a).astype(a.dtype), lambda g, a, out: (ew(RELU_BACKWARD, g, out),),
   rule="same", tol=(0, 0), saves_out=True, epilogue="relu")
_u("floor", np.floor, _zero, rule="same", tol=(0, 0))
_u("ceil", np.ceil, _zero, rule="same", tol=(0, 0))
_u("round", np.round, _zero, rule="same", tol=(0, 0))
_u("_round_decimals", lambda a, s: (np.round(a * s) / s).astype(a.dtype), _zero, rule="same", tol=(1e-6, 1e-7),
   block="round_decimals", golden="round")
_u("trunc", np.trunc, _zero, rule="same", tol=(0, 0))
_u("frac", lambda a: a - np.trunc(a), lambda g, a, out: (g,), rule="same", tol=(0, 0))
_u("isnan", np.isnan, rule="predicate", tol=(0, 0))
_u("isinf", np.isinf, rule="predicate", tol=(0, 0))
_u("isfinite", np.isfinite, rule="predicate", tol=(0, 0))
_u("logical_not", np.logical_not, rule="compare", tol=(0, 0))
_u("nan_to_num", lambda a, n, p, m: np.nan_to_num(a, nan=n, posinf=p, neginf=m), lambda g, a, out, *p:
   (where(isfinite(a), g, 0.0),), rule="same", tol=(0, 0))
# activations (torch.nn.functional)
# Activations: the sign of a zero result is the implementation's (PyTorch's vectorized kernels
# differ from its scalar ones), so it is not compared.
_ACT = {"signed_zero": False}
_u("relu6", lambda a: np.clip(a, 0, 6), lambda g, a, out: (where((a > 0) & (a < 6), g, 0.0),), rule="same",
   tol=(0, 0), grad_name="HardtanhBackward0", **_ACT)
_u("hardtanh", lambda a, lo, hi: np.clip(a, lo, hi).astype(a.dtype),
   lambda g, a, out, lo, hi: (where((a > lo) & (a < hi), g, 0.0),), rule="same", tol=(0, 0), **_ACT)
_u("leaky_relu", lambda a, s: np.where(a < 0, a * s, a).astype(a.dtype),
   lambda g, a, out, s: (where(a > 0, g, g * s),), tol=(1e-6, 0), **_ACT)
# ELU's gradient below 0 is alpha * exp(x): (out + alpha) would cancel for large negative x
_u("elu", lambda a, al: np.where(a <= 0, al * np.expm1(a), a).astype(a.dtype),
   lambda g, a, out, al: (where(a > 0, g, g * al * exp(a)),), tol=(2e-6, 1e-7), **_ACT)
_SELU_A, _SELU_S = 1.6732632423543772, 1.0507009873554805
_u("selu", lambda a: (_SELU_S * np.where(a <= 0, _SELU_A * np.expm1(a), a)).astype(a.dtype),
   lambda g, a, out: (where(a > 0, g * _SELU_S, g * (_SELU_S * _SELU_A) * exp(a)),), tol=(2e-6, 1e-7),
   grad_name="EluBackward0", **_ACT)
_u("gelu", lambda a: (0.5 * a * (1 + _np_erf(a / np.sqrt(2)))).astype(a.dtype),
   lambda g, a, out: (g * (0.5 * (1 + erf(a * 0.7071067811865476)) + a * 0.3989422804014327 * exp(-0.5 * a * a)),),
   tol=(2e-6, 1e-6), **_ACT)
_GC = 0.7978845608028654


def _gelu_tanh_back(g, a, out):
    inner = _GC * (a + 0.044715 * a * a * a)
    t = tanh(inner)
    d_inner = _GC * (1 + 3 * 0.044715 * a * a)
    return (g * (0.5 * (1 + t) + 0.5 * a * (1 - t * t) * d_inner),)


_u("_gelu_tanh", lambda a: (0.5 * a * (1 + np.tanh(_GC * (a + 0.044715 * a ** 3)))).astype(a.dtype),
   _gelu_tanh_back, block="gelu_tanh", tol=(2e-6, 1e-6), grad_name="GeluBackward0", golden="gelu", **_ACT)
_u("silu", lambda a: (a * _sig(a)).astype(a.dtype), lambda g, a, out: (g * (sigmoid(a) * (1 + a * (1 - sigmoid(a)))),),
   tol=(2e-6, 1e-6), **_ACT)
_u("mish", lambda a: (a * np.tanh(_softplus(a))).astype(a.dtype),
   lambda g, a, out: (g * (tanh(softplus(a)) + a * sigmoid(a) * (1 - tanh(softplus(a)) ** 2)),), tol=(2e-6, 1e-6),
   **_ACT)
_u("softplus", _softplus,
   lambda g, a, out, beta, th: (where(a * beta > th, g, g * sigmoid(a * beta)),), tol=(2e-6, 1e-6), **_ACT)
# hardswish's gradient at the kinks follows PyTorch: 0 at -3, 1 at 3
_u("hardswish", lambda a: (a * np.clip(a + 3, 0, 6) / 6).astype(a.dtype),
   lambda g, a, out: (where((a > -3) & (a < 3), g * (a / 3 + 0.5), where(a >= 3, g, 0.0)),), tol=(1e-6, 1e-7),
   **_ACT)
_u("hardsigmoid", lambda a: (np.clip(a + 3, 0, 6) / 6).astype(a.dtype),
   lambda g, a, out: (where((a > -3) & (a < 3), g / 6, 0.0),), tol=(1e-6, 1e-7), **_ACT)
_u("_pow2_floor", lambda a: (np.ascontiguousarray(a, np.float32).view(np.uint32) & np.uint32(0x7F800000)).view(
    np.float32), None, block="pow2_floor", tol=(0, 0), golden="var")
_u("erf", lambda a: _np_erf(a), lambda g, a, out: (g * 1.1283791670955126 * exp(-a * a),), tol=(2e-6, 2e-7),
   block="erf")


def _tname(d) -> str:
    return _dtype.SCALAR_NAMES[d.name]


def _unary_fn(name, doc, bool_error=None, int_ok=True, bool_ok=True):
    op = UNARY[name]

    def f(input, *, out=None) -> Tensor:
        if not isinstance(input, Tensor):
            raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
        if bool_error and input.dtype.name == "bool":
            raise RuntimeError(bool_error)
        if input.dtype.is_complex and name == "abs":
            if out is input:
                raise RuntimeError("In-place abs is not supported for complex tensors.")
            from .complex import complex_abs   # |z|: a real result (ops/complex.py)
            return _out(complex_abs(input), out)
        if (not bool_ok and input.dtype.name == "bool") or (not int_ok and not (
                input.dtype.is_floating_point or input.dtype.is_complex)):
            raise NotImplementedError(f"\"{name}\" not implemented for '{_tname(input.dtype)}'")
        if name in ("floor", "ceil", "round", "trunc") and input.dtype.category in (0, 1):
            return _out(input.clone(), out)
        if name == "rsqrt" and input.dtype.name == "bfloat16":  # PyTorch rounds sqrt's result first
            return _out(reciprocal(sqrt(input)), out)
        if name == "square" and input.dtype.name == "bool":
            input = input.long()
        return ew(op, input, out=out)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = doc
    return f


neg = _unary_fn("neg", "``-input``.", bool_error="Negation, the `-` operator, on a bool tensor is not supported. "
                "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")
negative = neg
abs = _unary_fn("abs", "Absolute value.", bool_ok=False)  # noqa: A001
absolute = abs
sign = _unary_fn("sign", "-1, 0 or 1 by the sign of each element.")
exp = _unary_fn("exp", "e to the power of each element.")
exp2 = _unary_fn("exp2", "2 to the power of each element.")
log = _unary_fn("log", "Natural logarithm (``-inf`` at 0, NaN below).")
log2 = _unary_fn("log2", "Base-2 logarithm.")
log10 = _unary_fn("log10", "Base-10 logarithm.")
log1p = _unary_fn("log1p", "``log(1 + input)``, accurate near 0.")
expm1 = _unary_fn("expm1", "``exp(input) - 1``, accurate near 0.")
sqrt = _unary_fn("sqrt", "Square root (NaN below 0).")
rsqrt = _unary_fn("rsqrt", "``1 / sqrt(input)``.")
square = _unary_fn("square", "``input * input``.")
reciprocal = _unary_fn("reciprocal", "``1 / input``.")
sin = _unary_fn("sin", "Sine (radians).")
cos = _unary_fn("cos", "Cosine (radians).")
tan = _unary_fn("tan", "Tangent (radians).")
asin = arcsin = _unary_fn("asin", "Inverse sine.")
acos = arccos = _unary_fn("acos", "Inverse cosine.")
atan = arctan = _unary_fn("atan", "Inverse tangent.")
tanh = _unary_fn("tanh", "Hyperbolic tangent.")
sinh = _unary_fn("sinh", "Hyperbolic sine.")
cosh = _unary_fn("cosh", "Hyperbolic cosine.")
sigmoid = _unary_fn("sigmoid", "``1 / (1 + exp(-input))``.")
erf = _unary_fn("erf", "The error function.")
floor = _unary_fn("floor", "Round down.", bool_ok=False)
ceil = _unary_fn("ceil", "Round up.", bool_ok=False)
trunc = fix = _unary_fn("trunc", "Round toward zero.", bool_ok=False)
frac = _unary_fn("frac", "``input - trunc(input)``.", int_ok=False)
isnan = _unary_fn("isnan", "True where the element is NaN.")
isinf = _unary_fn("isinf", "True where the element is +inf or -inf.")
isfinite = _unary_fn("isfinite", "True where the element is neither infinite nor NaN.")
logical_not = _unary_fn("logical_not", "True where the element is zero.")
_round = _unary_fn("round", "Round half to even.", bool_ok=False)


def round(input: Tensor, *, decimals: int = 0, out=None) -> Tensor:  # noqa: A001 - torch's name
    """Round half to even; ``decimals`` rounds to that many decimal places."""
    if decimals == 0:
        return _round(input, out=out)
    if not input.dtype.is_floating_point:
        raise RuntimeError("round_cpu not implemented for 'Long' with decimals")
    return ew(UNARY["_round_decimals"], input, params=(builtins.float(10.0 ** decimals),), out=out)


def _float_act(name: str, x) -> None:
    if not isinstance(x, Tensor):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type(x).__name__}")
    if not x.dtype.is_floating_point:
        raise NotImplementedError(f"\"{name}\" not implemented for '{_tname(x.dtype)}'")


def _no_bool(name: str, x) -> None:
    if x.dtype.name == "bool":
        raise RuntimeError(f"\"{name}\" not implemented for 'Bool'")


def relu(input: Tensor, inplace: bool = False, *, out=None) -> Tensor:
    """``max(input, 0)``."""
    if input.dtype.name == "bool":
        raise RuntimeError("relu: \"clamp_min_cpu\" not implemented for 'Bool'")
    if inplace:
        return input.relu_()
    return ew(UNARY["relu"], input, out=out)


def nan_to_num(input: Tensor, nan: float = 0.0, posinf=None, neginf=None, *, out=None) -> Tensor:
    """Replace NaN, +inf and -inf with finite numbers (default: 0 and the dtype's largest/smallest)."""
    if not input.dtype.is_floating_point:
        return _out(input.clone(), out)
    big = _dtype.finfo(input.dtype).max if input.dtype.name == "bfloat16" else 3.4028234663852886e38
    p = big if posinf is None else builtins.float(posinf)
    m = -big if neginf is None else builtins.float(neginf)
    return ew(UNARY["nan_to_num"], input, params=(builtins.float(nan), p, m), out=out)


CLAMP = register(OpDef("clamp", "ternary", ("ops_binary.wgsl", "clamp"),
                       lambda a, lo, hi: np.where(np.isnan(a), a, np.minimum(np.maximum(a, lo), hi)),
                       dtype_rule="promote", tol=(0, 0),
                       backward=lambda g, a, lo, hi, out: (
                           where((a >= lo) & (a <= hi), g, 0.0),
                           _bound_grad(g, a, lo, hi, low=True), _bound_grad(g, a, lo, hi, low=False)),
                       extra={"grad_name": "ClampBackward1"}))
for _n in ("clamp_min", "clamp_max"):  # clamp with one bound: its kernel, exact
    register(OpDef(_n, "ternary", ("ops_binary.wgsl", "clamp"), None, tol=(0, 0), doc="clamp with one bound",
                   extra={"messages": True}))


def _bound_grad(g, a, lo, hi, low):
    b = lo if low else hi
    if not (isinstance(b, Tensor) and b.dtype.is_floating_point):
        return None
    from .elementwise import sum_to
    mask = (a < lo) if low else (a > hi)
    return sum_to(where(mask, g, 0.0), b._shape)


def clamp(input: Tensor, min=None, max=None, *, out=None) -> Tensor:  # noqa: A002 - torch's names
    """Limit each element to ``[min, max]`` (either bound may be None, a number or a tensor)."""
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if input.dtype.is_complex:
        raise NotImplementedError("clamp is not supported for complex types")
    dt = input.dtype
    if isinstance(min, builtins.float) or isinstance(max, builtins.float) or \
            (isinstance(min, Tensor) and min.dtype.is_floating_point) or \
            (isinstance(max, Tensor) and max.dtype.is_floating_point):
        dt = dt if dt.is_floating_point else _dtype.get_default_dtype()
    if dt.is_floating_point:
        lo = -math.inf if min is None else min
        hi = math.inf if max is None else max
    else:
        if dt.host:  # int8, uint8, int16: a Python bound must fit (uint8 takes -1 as 255), as in PyTorch
            from .creation import check_fill_value
            for b in (min, max):
                if isinstance(b, numbers.Integral) and not isinstance(b, builtins.bool):
                    check_fill_value(dt, builtins.int(b))
        info = np.iinfo(dt.np if dt.host else np.int32)
        lo = builtins.int(info.min) if min is None else min
        hi = builtins.int(info.max) if max is None else max
    r = ew(CLAMP, input, lo, hi)
    return _out(r, out)


clip = clamp


def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False) -> Tensor:
    """Clamp to ``[min_val, max_val]`` (torch.nn.functional.hardtanh)."""
    _no_bool("hardtanh", input)
    if inplace:
        from .memory import inplace as _ip
        return _ip("hardtanh_", lambda x: hardtanh(x, min_val, max_val), input)
    return ew(UNARY["hardtanh"], input, params=(builtins.float(min_val), builtins.float(max_val)))


def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    """``min(max(input, 0), 6)``."""
    _no_bool("relu6", input)
    if inplace:
        from .memory import inplace as _ip
        return _ip("relu6_", relu6, input)
    return ew(UNARY["relu6"], input)


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    """``input`` where positive, else ``negative_slope * input``."""
    _float_act("leaky_relu", input)
    if inplace:
        from .memory import inplace as _ip
        return _ip("leaky_relu_", lambda x: leaky_relu(x, negative_slope), input)
    return ew(UNARY["leaky_relu"], input, params=(builtins.float(negative_slope),))


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """``input`` where positive, else ``alpha * (exp(input) - 1)``."""
    _float_act("elu", input)
    if inplace:
        from .memory import inplace as _ip
        return _ip("elu_", lambda x: elu(x, alpha), input)
    return ew(UNARY["elu"], input, params=(builtins.float(alpha),))


def selu(input: Tensor, inplace: bool = False) -> Tensor:
    """Scaled ELU with the self-normalising constants."""
    _float_act("selu", input)
    if inplace:
        from .memory import inplace as _ip
        return _ip("selu_", selu, input)
    return ew(UNARY["selu"], input)


def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    """Gaussian error linear unit: exact (``'none'``) or the ``'tanh'`` approximation."""
    _float_act("gelu", input)
    if approximate == "none":
        return ew(UNARY["gelu"], input)
    if approximate == "tanh":
        return ew(UNARY["_gelu_tanh"], input)
    raise RuntimeError("approximate argument must be either none or tanh.")


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    """``input * sigmoid(input)``."""
    _float_act("silu", input)
    if inplace:
        from .memory import inplace as _ip
        return _ip("silu_", silu, input)
    return ew(UNARY["silu"], input)


def mish(input: Tensor, inplace: bool = False) -> Tensor:
    """``input * tanh(softplus(input))``."""
    _float_act("mish", input)
    if inplace:
        from .memory import inplace as _ip
        return _ip("mish_", mish, input)
    return ew(UNARY["mish"], input)


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    """``log(1 + exp(beta * input)) / beta``, linear above ``threshold``."""
    _float_act("softplus", input)
    return ew(UNARY["softplus"], input, params=(builtins.float(beta), builtins.float(threshold)))


def hardswish(input: Tensor, inplace: bool = False) -> Tensor:
    """``input * relu6(input + 3) / 6``."""
    _float_act("hardswish", input)
    if inplace:
        from .memory import inplace as _ip
        return _ip("hardswish_", hardswish, input)
    return ew(UNARY["hardswish"], input)


def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:
    """``relu6(input + 3) / 6``."""
    _float_act("hardsigmoid", input)
    if inplace:
        from .memory import inplace as _ip
        return _ip("hardsigmoid_", hardsigmoid, input)
    return ew(UNARY["hardsigmoid"], input)


def clamp_min(input: Tensor, min, *, out=None) -> Tensor:  # noqa: A002 - torch's name
    """``clamp(input, min=min)``: elements below ``min`` (a number or a tensor) become ``min``.

    Example::

        >>> torch.clamp_min(torch.tensor([1, 5]), 3)
        tensor([3, 5])
    """
    return clamp(input, min=min, out=out)


def clamp_max(input: Tensor, max, *, out=None) -> Tensor:  # noqa: A002 - torch's name
    """``clamp(input, max=max)``: elements above ``max`` (a number or a tensor) become ``max``.

    Example::

        >>> torch.clamp_max(torch.tensor([1., 5.]), 2.5)
        tensor([1.0000, 2.5000])
    """
    return clamp(input, max=max, out=out)


def _round_method(self, decimals=0):
    return round(self, decimals=decimals)


def _round_(self, decimals=0):
    from .memory import inplace as _ip
    return _ip("round_", lambda x: round(x, decimals=decimals), self)


# ---- the public names (bound by borch_webgpu/_bind.py) ------------------------------------------
methods(("neg", neg), ("abs", abs), ("sign", sign), ("exp", exp), ("exp2", exp2), ("log", log), ("log2", log2),
        ("log10", log10), ("log1p", log1p), ("expm1", expm1), ("sqrt", sqrt), ("rsqrt", rsqrt), ("square", square),
        ("reciprocal", reciprocal), ("sin", sin), ("cos", cos), ("tan", tan), ("tanh", tanh), ("sinh", sinh),
        ("cosh", cosh), ("sigmoid", sigmoid), ("floor", floor), ("ceil", ceil), ("frac", frac),
        ("logical_not", logical_not), ("erf", erf), inplace=True)
api("negative", negative, inplace=True)
api("absolute", absolute, inplace=True)
api("asin", asin, inplace=True, aliases=("arcsin",))
api("acos", acos, inplace=True, aliases=("arccos",))
api("atan", atan, inplace=True, aliases=("arctan",))
api("trunc", trunc, inplace=True, aliases=("fix",))
methods(("isnan", isnan), ("isinf", isinf), ("isfinite", isfinite))
api("round", round, method=_round_method)
def round_(input: Tensor, *, decimals: int = 0) -> Tensor:
    """In-place ``torch.round``: the result is written into ``input``, which is returned.

    Example::

        >>> x = torch.tensor([0.5, 1.5, 2.25])
        >>> torch.round_(x)
        tensor([0., 2., 2.])
    """
    return _round_(input, decimals)


api("round_", round_, method=_round_)
api("relu", relu, method=lambda self: relu(self), inplace=True)
api("nan_to_num", nan_to_num, inplace=True)
api("clamp", clamp, inplace=True, aliases=("clip",))
api("clamp_min", clamp_min, inplace=True)
api("clamp_max", clamp_max, inplace=True)
api("__neg__", method=neg)
api("__pos__", method=lambda self: self)
api("__abs__", method=abs)
api("selu", selu, tensor=False)
