"""More of PyTorch's binary math: hypot, logaddexp(2), copysign, nextafter, xlogy, the bitwise ops and shifts
(with the ``& | ^ ~ << >>`` operators), gcd/lcm, heaviside, ldexp, float_power and isin. Kernel rows are
``_reg`` records as in ops/elementwise.py (WGSL blocks in ops_binary.wgsl); the rest compose existing ops."""
from __future__ import annotations

import builtins

import numpy as np

from .. import _dtype
from ..tensor import Tensor
from ._registry import OpDef, api, register
from .elementwise import (_Meta, _binop, _reg, _tensors_only, _tg, ew, floor_divide, mul, operands, pow,
                          promote, where)
from .special import torch_inplace
from .unary import _tname, logical_not

__all__ = ["hypot", "logaddexp", "logaddexp2", "copysign", "nextafter", "xlogy", "heaviside", "ldexp",
           "float_power", "gcd", "lcm", "isin", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not",
           "bitwise_left_shift", "bitwise_right_shift"]


def _xlogy_ref(a, b):
    a, b = np.broadcast_arrays(a, b)
    return np.where(np.isnan(b), b, np.where(a == 0, 0, a * np.log(b))).astype(a.dtype)


def _width(a) -> int:
    return np.asarray(a).dtype.itemsize * 8


def _lshift_ref(a, b):
    a, b = np.broadcast_arrays(np.asarray(a), np.asarray(b))
    w = _width(a)
    bad = (b < 0) | (b >= w)
    return np.where(bad, 0, np.left_shift(a, np.where(bad, 0, b).astype(a.dtype))).astype(a.dtype)


def _rshift_ref(a, b):
    a, b = np.broadcast_arrays(np.asarray(a), np.asarray(b))
    w = _width(a)
    return np.right_shift(a, np.where((b < 0) | (b >= w), w - 1, b).astype(a.dtype)).astype(a.dtype)


def _logaddexp_back(base):
    def back(g, a, b, out):
        if base == 2:
            return _tg(g / (1 + pow(2.0, b - a)), a), _tg(g / (1 + pow(2.0, a - b)), b)
        return _tg(g / (1 + (b - a).exp()), a), _tg(g / (1 + (a - b).exp()), b)
    return back


def _copysign_back(g, a, b, out):
    if not isinstance(a, Tensor):
        return None, _tg(g * 0, b)
    ratio = where(a == 0, 0.0, out / where(a == 0, 1.0, a))
    return _tg(g * ratio, a), _tg(g * 0, b) if isinstance(b, Tensor) else None


def _xlogy_back(g, a, b, out):
    # PyTorch: xlogy(grad, other), 0 where self == 0 and other <= 0
    ga = _tg(where((a == 0) & (b <= 0), 0.0, xlogy(g, b)), a) if isinstance(a, Tensor) else None
    gb = _tg(g * a / b, b) if isinstance(b, Tensor) else None
    return ga, gb


HYPOT = _reg("hypot", "hypot", np.hypot, rule="promote", tol=(2e-6, 1e-7), saves_out=True,
             backward=lambda g, a, b, out: (_tg(g * a / out, a), _tg(g * b / out, b)))
LOGADDEXP = _reg("logaddexp", "logaddexp", np.logaddexp, rule="promote", tol=(2e-6, 2e-6),
                 backward=_logaddexp_back(None))
LOGADDEXP2 = _reg("logaddexp2", "logaddexp2", np.logaddexp2, rule="promote", tol=(2e-6, 2e-6),
                  backward=_logaddexp_back(2))
COPYSIGN = _reg("copysign", "copysign", np.copysign, rule="float", tol=(0, 0), backward=_copysign_back)
NEXTAFTER = _reg("nextafter", "nextafter", np.nextafter, rule="promote", tol=(0, 0),
                 backward=lambda g, a, b, out: (_tg(g, a), _tg(g * 0, b)))
XLOGY = _reg("xlogy", "xlogy", _xlogy_ref, rule="float", tol=(2e-6, 1e-6), backward=_xlogy_back)
BITWISE = {n: _reg(f"bitwise_{n}", f"bitwise_{n}", ref, rule="promote", tol=(0, 0))
           for n, ref in (("and", np.bitwise_and), ("or", np.bitwise_or), ("xor", np.bitwise_xor))}
LSHIFT = _reg("bitwise_left_shift", "bitwise_left_shift", _lshift_ref, rule="promote", tol=(0, 0))
RSHIFT = _reg("bitwise_right_shift", "bitwise_right_shift", _rshift_ref, rule="promote", tol=(0, 0))
GCD = _reg("gcd", "gcd", np.gcd, rule="promote", tol=(0, 0))
for _n, _doc in (("bitwise_not", "~x on the integer kernels' xor with -1; logical not for bool"),
                 ("lcm", "|a / gcd(a, b) * b|"), ("heaviside", "where(x == 0, values, x > 0)"),
                 ("ldexp", "input * 2 ** other"), ("float_power", "pow in float64"),
                 ("isin", "a broadcast comparison, reduced with any")):
    tol = {"ldexp": (1e-6, 1e-6), "float_power": (1e-12, 1e-12)}.get(_n, (0, 0))  # float_power: float64 pow
    register(OpDef(_n, "composite", None, None, tol=tol, doc=_doc))


def _float_only(name: str, args) -> None:
    d = promote(args)
    if not d.is_floating_point:
        raise NotImplementedError(f"\"{name}_cpu\" not implemented for '{_tname(d)}'")


def _int_only(name: str, args, out=None) -> _dtype.dtype:
    d = promote(args)
    if d.is_floating_point:
        if out is not None and not out.dtype.is_floating_point:  # x.bitwise_and_(float): PyTorch checks the cast first
            from .memory import _check_result
            _check_result(name + "_", out, _Meta(out._shape, d))
        raise NotImplementedError(f"\"{name}_cpu\" not implemented for '{_tname(d)}'")
    return d


def _float_binary(op: OpDef, input, other, out) -> Tensor:
    """The float-only binary ops of two tensors (PyTorch's TypeError for a number, NotImplementedError for ints)."""
    _tensors_only(op.name, input, other)
    _float_only(op.name, [input, other])
    return ew(op, input, other, out=out)


def hypot(input: Tensor, other: Tensor, *, out=None) -> Tensor:
    """``sqrt(input ** 2 + other ** 2)`` without overflow or underflow of the squares.

    Example::

        >>> torch.hypot(torch.tensor([3.0, 1e30]), torch.tensor([4.0, 1e30]))
        tensor([5.0000e+00, 1.4142e+30])
    """
    return _float_binary(HYPOT, input, other, out)


def logaddexp(input: Tensor, other: Tensor, *, out=None) -> Tensor:
    """``log(exp(input) + exp(other))``, computed without overflow.

    Example::

        >>> torch.logaddexp(torch.tensor([1.0, 1000.0]), torch.tensor([2.0, 1000.0]))
        tensor([   2.3133, 1000.6932])
    """
    return _float_binary(LOGADDEXP, input, other, out)


def logaddexp2(input: Tensor, other: Tensor, *, out=None) -> Tensor:
    """``log2(2 ** input + 2 ** other)``, computed without overflow.

    Example::

        >>> torch.logaddexp2(torch.tensor([1.0, 3.0]), torch.tensor([1.0, 2.0]))
        tensor([2.0000, 3.5850])
    """
    return _float_binary(LOGADDEXP2, input, other, out)


def copysign(input: Tensor, other, *, out=None) -> Tensor:
    """The magnitude of ``input`` with the sign of ``other`` (a tensor or a number; -0.0 counts as negative).

    Example::

        >>> torch.copysign(torch.tensor([1.0, -2.0, 3.0]), torch.tensor([-1.0, 1.0, -0.0]))
        tensor([-1.,  2., -3.])
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"copysign(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    return ew(COPYSIGN, input, other, out=out)


def nextafter(input: Tensor, other: Tensor, *, out=None) -> Tensor:
    """The next floating-point value after ``input`` towards ``other``.

    Example::

        >>> torch.nextafter(torch.tensor([1.0, 1.0]), torch.tensor([2.0, 0.0])) - 1
        tensor([ 1.1921e-07, -5.9605e-08])
    """
    return _float_binary(NEXTAFTER, input, other, out)


def xlogy(input, other, *, out=None) -> Tensor:
    """``input * log(other)``, 0 where ``input`` is 0 (unless ``other`` is NaN); either may be a number.

    Example::

        >>> torch.xlogy(torch.tensor([0.0, 2.0, 0.0]), torch.tensor([0.0, 3.0, float('nan')]))
        tensor([0.0000, 2.1972,    nan])
    """
    return ew(XLOGY, input, other, out=out)


def heaviside(input: Tensor, values: Tensor, *, out=None) -> Tensor:
    """The Heaviside step: 0 below zero, 1 above it, ``values`` where ``input`` is 0.

    Example::

        >>> torch.heaviside(torch.tensor([-1.5, 0.0, 2.0]), torch.tensor([0.5]))
        tensor([0.0000, 0.5000, 1.0000])
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"heaviside(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    if not isinstance(values, Tensor):
        raise TypeError(f"heaviside(): argument 'values' (position 2) must be Tensor, not {type(values).__name__}")
    if input.dtype is not values.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")
    x, v = input.detach(), values.detach()
    r = where(x == 0, v, (x > 0).to(x.dtype))
    from .elementwise import _out
    return _out(r, out)


def ldexp(input: Tensor, other: Tensor, *, out=None) -> Tensor:
    """``input * 2 ** other``.

    Example::

        >>> torch.ldexp(torch.tensor([1.0, 3.0]), torch.tensor([3, -1]))
        tensor([8.0000, 1.5000])
    """
    _tensors_only("ldexp", input, other)
    from .elementwise import _out
    return _out(mul(input, pow(2.0, other)), out)


def float_power(input, exponent, *, out=None) -> Tensor:
    """``input ** exponent`` computed in float64 (the result is float64).

    Example::

        >>> torch.float_power(torch.tensor([2, 3]), 2)
        tensor([4., 9.], dtype=torch.float64)
    """
    def f64(x):
        return x.double() if isinstance(x, Tensor) else builtins.float(x)
    if not isinstance(input, Tensor) and not isinstance(exponent, Tensor):
        raise TypeError("float_power(): expected at least one Tensor argument")
    return pow(f64(input), f64(exponent), out=out)


def _float_power_(self: Tensor, exponent) -> Tensor:
    if self.dtype.name != "float64":
        raise RuntimeError(f"the base given to float_power_ has dtype {_tname(self.dtype)} but the operation's "
                           "result requires dtype Double")
    from .memory import inplace
    return inplace("float_power_", float_power, self, exponent)


def gcd(input: Tensor, other: Tensor, *, out=None) -> Tensor:
    """The greatest common divisor (non-negative; ``gcd(0, 0) = 0``) of integer tensors.

    Example::

        >>> torch.gcd(torch.tensor([12, -4, 0]), torch.tensor([18, 6, 0]))
        tensor([6, 2, 0])
    """
    _tensors_only("gcd", input, other)
    _int_only("gcd", [input, other])
    if promote([input, other]).name == "bool":
        raise NotImplementedError("\"gcd_cpu\" not implemented for 'Bool'")
    return ew(GCD, input, other, out=out)


def lcm(input: Tensor, other: Tensor, *, out=None) -> Tensor:
    """The least common multiple (non-negative; 0 when either is 0) of integer tensors.

    Example::

        >>> torch.lcm(torch.tensor([4, 0, -3]), torch.tensor([6, 5, 7]))
        tensor([12,  0, 21])
    """
    _tensors_only("lcm", input, other)
    _int_only("lcm", [input, other])
    if promote([input, other]).name == "bool":
        raise NotImplementedError("\"lcm_cpu\" not implemented for 'Bool'")
    g = gcd(input, other)
    zero = g == 0
    r = (floor_divide(input, where(zero, 1, g)) * other).abs()
    from .elementwise import _out
    return _out(where(zero, 0, r), out)


def isin(elements, test_elements, *, assume_unique: bool = False, invert: bool = False) -> Tensor:
    """True where an element of ``elements`` is in ``test_elements`` (either may be a number);
    ``invert=True`` negates it.

    Example::

        >>> torch.isin(torch.tensor([[1, 2], [3, 4]]), torch.tensor([2, 3]))
        tensor([[False,  True],
                [ True, False]])
    """
    args, dev = operands("isin", (elements, test_elements))
    e, t = (x if isinstance(x, Tensor) else _scalar_tensor(x, dev) for x in args)
    hit = (e.detach().reshape(-1, 1) == t.detach().reshape(1, -1)).any(1).reshape(e.shape)
    return logical_not(hit) if invert else hit


def _scalar_tensor(x, dev) -> Tensor:
    from .creation import tensor
    return tensor(x, device=dev)


# ---- bitwise ops ----------------------------------------------------------------------------------------
def _bitwise(name: str, sym: str):
    op = BITWISE[name]

    def f(input, other, *, out=None) -> Tensor:
        args, _ = operands(f"bitwise_{name}", (input, other))
        _int_only(f"bitwise_{name}", args, out)
        return ew(op, *args, out=out)
    f.__name__ = f.__qualname__ = f"bitwise_{name}"
    return f


bitwise_and = _bitwise("and", "&")
bitwise_or = _bitwise("or", "|")
bitwise_xor = _bitwise("xor", "^")
bitwise_and.__doc__ = """Bitwise AND of integer or bool tensors (``&``); either may be a number.

    Example::

        >>> torch.bitwise_and(torch.tensor([12, -1]), torch.tensor([10, 6]))
        tensor([8, 6])
    """
bitwise_or.__doc__ = """Bitwise OR of integer or bool tensors (``|``); either may be a number.

    Example::

        >>> torch.bitwise_or(torch.tensor([12, -8]), torch.tensor([10, 1]))
        tensor([14, -7])
    """
bitwise_xor.__doc__ = """Bitwise XOR of integer or bool tensors (``^``); either may be a number.

    Example::

        >>> torch.bitwise_xor(torch.tensor([True, True]), torch.tensor([False, True]))
        tensor([ True, False])
    """


def bitwise_not(input: Tensor, *, out=None) -> Tensor:
    """Bitwise NOT (``~``) of an integer tensor; logical NOT of a bool tensor.

    Example::

        >>> torch.bitwise_not(torch.tensor([0, 5, -3]))
        tensor([-1, -6,  2])
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"bitwise_not(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    if input.dtype.is_floating_point:
        raise NotImplementedError(f"\"bitwise_not_cpu\" not implemented for '{_tname(input.dtype)}'")
    if input.dtype.name == "bool":
        return logical_not(input, out=out)
    return bitwise_xor(input, -1, out=out)


def _shift_check(name: str, args) -> _dtype.dtype:
    d = promote(args)
    if d.is_floating_point or d.name == "bool":
        raise NotImplementedError(f"\"{name}_cpu\" not implemented for '{_tname(d)}'")
    return d


def bitwise_left_shift(input, other, *, out=None) -> Tensor:
    """``input << other`` for integer tensors: int32 and the small dtypes wrap, shifts below 0 or past the width
    give 0; int64 (held in 32 bits) raises where PyTorch's result would not fit. Either may be a number.

    Example::

        >>> torch.bitwise_left_shift(torch.tensor([1, -3]), torch.tensor([4, 1]))
        tensor([16, -6])
    """
    args, _ = operands("bitwise_left_shift", (input, other))
    d = _shift_check("lshift", args)
    if d.name != "int64":
        return ew(LSHIFT, *args, out=out)
    a, b = (x if isinstance(x, Tensor) else _scalar_tensor(x, _) for x in args)
    off = (b < 0) | (b >= 64)
    a, b = where(off, 0, a), where(off, 0, b)
    r = a * pow(2, b.clamp(0, 30)) * pow(2, (b - 30).clamp(0, 30)) * pow(2, (b - 60).clamp(0, 30))
    from .elementwise import _out
    return _out(r.to(d), out)


def bitwise_right_shift(input, other, *, out=None) -> Tensor:
    """``input >> other`` (arithmetic) for integer tensors; shifts below 0 or past the width give 0 or -1.
    Either may be a number.

    Example::

        >>> torch.bitwise_right_shift(torch.tensor([16, -7]), torch.tensor([2, 1]))
        tensor([ 4, -4])
    """
    args, _ = operands("bitwise_right_shift", (input, other))
    _shift_check("rshift", args)
    return ew(RSHIFT, *args, out=out)


def _invert(self):
    if self.dtype.is_floating_point:
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
    return bitwise_not(self)


# ---- the public names (bound by borch_webgpu/_bind.py) ------------------------------------------
for _n, _f in (("hypot", hypot), ("copysign", copysign), ("nextafter", nextafter), ("xlogy", xlogy),
               ("heaviside", heaviside), ("ldexp", ldexp), ("gcd", gcd), ("lcm", lcm), ("bitwise_and", bitwise_and),
               ("bitwise_or", bitwise_or), ("bitwise_xor", bitwise_xor), ("bitwise_left_shift", bitwise_left_shift),
               ("bitwise_right_shift", bitwise_right_shift)):
    api(_n, _f, inplace=True)
api("logaddexp", logaddexp)
api("logaddexp2", logaddexp2)
api("float_power", float_power)
api("float_power_", method=_float_power_)
api("isin", isin, tensor=False)
api("bitwise_not", bitwise_not, inplace=True)
api("__invert__", method=_invert)
for _n in ("xlogy", "ldexp", "gcd", "lcm"):
    api(_n + "_", torch_inplace(_n), tensor=False)
for _d, _f in (("and", bitwise_and), ("or", bitwise_or), ("xor", bitwise_xor), ("lshift", bitwise_left_shift),
               ("rshift", bitwise_right_shift)):
    api(f"__{_d}__", method=_binop(_f))
    api(f"__r{_d}__", method=_binop(_f, reflected=True))
    api(f"__i{_d}__", _f, writes_self=True)
