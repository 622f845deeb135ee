"""More of PyTorch's unary math: inverse hyperbolic functions, erfc/erfinv, the gamma family, i0, sinc, logit,
sign tests and frexp. Kernel rows use ops/unary.py's ``_u`` table (WGSL block in ops_unary.wgsl, numpy reference
computed in float64, backward written with ops); the rest compose existing ops, as PyTorch does."""
from __future__ import annotations

import builtins
import math

import numpy as np

from .. import _dtype
from ..tensor import Tensor
from ._registry import OpDef, api, register
from ._special_ref import _digamma1, _erfinv1, _f64, _i1_1, _lgamma1, _polygamma1, _vec
from .elementwise import _out, ew, where
from .unary import UNARY, _u, exp, exp2, rsqrt, sign

__all__ = ["acosh", "asinh", "atanh", "arccosh", "arcsinh", "arctanh", "erfc", "erfinv", "lgamma", "digamma",
           "polygamma", "mvlgamma", "i0", "sinc", "logit", "deg2rad", "rad2deg", "sgn", "positive", "signbit",
           "isposinf", "isneginf", "isreal", "frexp", "torch_inplace"]


_ERFC2 = 1.1283791670955126   # 2 / sqrt(pi)
# name, numpy reference, backward(g, x, out, *params), dtype rule, tolerance
_u("acosh", np.arccosh, lambda g, a, out: (g * rsqrt(a * a - 1),), tol=(2e-6, 2e-6))
_u("asinh", np.arcsinh, lambda g, a, out: (g * rsqrt(a * a + 1),), tol=(2e-6, 2e-6))
_u("atanh", np.arctanh, lambda g, a, out: (g / (1 - a * a),), tol=(2e-6, 2e-6))
_u("erfc", _f64(_vec(math.erfc)), lambda g, a, out: (g * -_ERFC2 * exp(-a * a),), tol=(1e-5, 1e-7))
_u("erfinv", _f64(_vec(_erfinv1)), lambda g, a, out: (g * (0.5 * math.sqrt(math.pi)) * exp(out * out),),
   tol=(1e-5, 1e-6), saves_out=True)
_u("lgamma", _f64(_vec(_lgamma1)), lambda g, a, out: (g * digamma(a),), tol=(1e-5, 2e-5))
_u("digamma", _f64(_vec(_digamma1)), lambda g, a, out: (g * polygamma(1, a),), tol=(1e-5, 2e-5))
_u("polygamma", _f64(_vec(_polygamma1)), lambda g, a, out, n: (g * polygamma(builtins.int(n) + 1, a),),
   tol=(2e-5, 2e-5))
_u("i0", _f64(np.i0), lambda g, a, out: (g * ew(UNARY["_i1"], a),), tol=(2e-6, 1e-6))
_u("_i1", _f64(_vec(_i1_1)), lambda g, a, out: (g * where(a == 0, 0.5, i0(a) - out / where(a == 0, 1.0, a)),),
   block="i1", tol=(2e-6, 1e-6), golden="i0", grad_name="SpecialI1Backward0", saves_out=True)
_u("signbit", np.signbit, rule="predicate", tol=(0, 0))
_u("_frexp_mantissa", lambda a: np.frexp(a)[0], lambda g, a, out: (g * exp2(-_frexp_exponent(a).to(g.dtype)),),
   rule="same", block="frexp_mantissa", tol=(0, 0), golden="frexp", grad_name="FrexpBackward0")
_u("_frexp_exponent", lambda a: np.frexp(a)[1].astype(np.int32), None, block="frexp_exponent", tol=(0, 0),
   golden="frexp")
register(OpDef("mvlgamma", "composite", None, None, tol=(1e-5, 5e-5), doc="a sum of lgamma"))
register(OpDef("sinc", "composite", None, None, tol=(2e-6, 1e-7), doc="sin(pi x) / (pi x), 1 at 0"))
register(OpDef("logit", "composite", None, None, tol=(2e-6, 2e-6), doc="log(x / (1 - x)), x clamped to [eps, 1-eps]"))
register(OpDef("deg2rad", "composite", None, None, tol=(0, 0), doc="x * (pi / 180)"))
register(OpDef("rad2deg", "composite", None, None, tol=(0, 0), doc="x * (180 / pi)"))
register(OpDef("sgn", "composite", None, None, tol=(0, 0), doc="sign for real dtypes"))
register(OpDef("positive", "composite", None, None, tol=(0, 0), doc="the input itself"))
register(OpDef("isposinf", "composite", None, None, dtype_rule="compare", tol=(0, 0), doc="x == inf"))
register(OpDef("isneginf", "composite", None, None, dtype_rule="compare", tol=(0, 0), doc="x == -inf"))
register(OpDef("isreal", "composite", None, None, dtype_rule="compare", tol=(0, 0), doc="True for real dtypes"))
register(OpDef("frexp", "composite", None, None, tol=(0, 0), doc="mantissa and exponent kernels"))


def i0(input: Tensor, *, out=None) -> Tensor:
    """The modified Bessel function of the first kind, order 0.

    Example::

        >>> torch.i0(torch.tensor([0.0, 1.0, 5.0]))
        tensor([ 1.0000,  1.2661, 27.2399])
    """
    return _kernel("i0", input, out)


def _check(name: str, x) -> None:
    if not isinstance(x, Tensor):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type(x).__name__}")


def _kernel(name: str, x, out=None, params=()) -> Tensor:
    _check(name, x)
    return ew(UNARY[name], x, params=params, out=out)


def acosh(input: Tensor, *, out=None) -> Tensor:
    """Inverse hyperbolic cosine (NaN below 1).

    Example::

        >>> torch.acosh(torch.tensor([1.0, 2.0, 0.5]))
        tensor([0.0000, 1.3170,    nan])
    """
    return _kernel("acosh", input, out)


def asinh(input: Tensor, *, out=None) -> Tensor:
    """Inverse hyperbolic sine.

    Example::

        >>> torch.asinh(torch.tensor([-1.0, 0.0, 2.0]))
        tensor([-0.8814,  0.0000,  1.4436])
    """
    return _kernel("asinh", input, out)


def atanh(input: Tensor, *, out=None) -> Tensor:
    """Inverse hyperbolic tangent (+-inf at +-1, NaN beyond).

    Example::

        >>> torch.atanh(torch.tensor([0.5, 1.0, 2.0]))
        tensor([0.5493,    inf,    nan])
    """
    return _kernel("atanh", input, out)


arccosh, arcsinh, arctanh = acosh, asinh, atanh


def erfc(input: Tensor, *, out=None) -> Tensor:
    """The complementary error function ``1 - erf(input)``, accurate where erf is close to 1.

    Example::

        >>> torch.erfc(torch.tensor([0.0, 1.0, 4.0]))
        tensor([1.0000e+00, 1.5730e-01, 1.5417e-08])
    """
    return _kernel("erfc", input, out)


def erfinv(input: Tensor, *, out=None) -> Tensor:
    """The inverse error function on (-1, 1) (+-inf at +-1, NaN beyond).

    Example::

        >>> torch.erfinv(torch.tensor([0.0, 0.5, -1.0]))
        tensor([0.0000, 0.4769,   -inf])
    """
    return _kernel("erfinv", input, out)


def lgamma(input: Tensor, *, out=None) -> Tensor:
    """``log(|Gamma(input)|)`` (inf at 0 and the negative integers).

    Example::

        >>> torch.lgamma(torch.tensor([0.5, 3.0, -1.5]))
        tensor([0.5724, 0.6931, 0.8600])
    """
    return _kernel("lgamma", input, out)


def digamma(input: Tensor, *, out=None) -> Tensor:
    """The logarithmic derivative of Gamma (``-inf`` at 0, NaN at the negative integers).

    Example::

        >>> torch.digamma(torch.tensor([1.0, 0.5, 0.0]))
        tensor([-0.5772, -1.9635,    -inf])
    """
    return _kernel("digamma", input, out)


def polygamma(n: int, input: Tensor, *, out=None) -> Tensor:
    """The ``n``-th derivative of digamma (``n >= 0``).

    Example::

        >>> torch.polygamma(1, torch.tensor([1.0, 0.5]))
        tensor([1.6449, 4.9348])
    """
    _check("polygamma", input)
    if isinstance(n, builtins.bool) or not isinstance(n, (builtins.int, np.integer)):
        raise TypeError(f"polygamma(): argument 'n' (position 1) must be int, not {type(n).__name__}")
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    if n == 0:
        return digamma(input, out=out)
    return _kernel("polygamma", input, out, (builtins.float(n),))


def _floaty(x: Tensor) -> Tensor:
    return x if x.dtype.is_floating_point else x.to(_dtype.get_default_dtype())


def mvlgamma(input: Tensor, p: int, *, out=None) -> Tensor:
    """The multivariate log-gamma function of dimension ``p``:
    ``sum_j lgamma(input - j / 2) + p (p - 1) / 4 log(pi)``, j in 0..p-1.

    Example::

        >>> torch.mvlgamma(torch.tensor([2.5, 3.0]), 2)
        tensor([0.8570, 1.5502])
    """
    _check("mvlgamma", input)
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    x = _floaty(input)
    from .creation import arange
    args = arange(-p * 0.5 + 0.5, 0.5, 0.5, dtype=x.dtype, device=x.device) + x.unsqueeze(-1)
    r = lgamma(args).sum(-1) + p * (p - 1) * math.log(math.pi) / 4
    return _out(r, out)


def sinc(input: Tensor, *, out=None) -> Tensor:
    """The normalized sinc ``sin(pi x) / (pi x)``, 1 at 0.

    Example::

        >>> torch.sinc(torch.tensor([0.0, 0.5, 1.5]))
        tensor([ 1.0000,  0.6366, -0.2122])
    """
    _check("sinc", input)
    x = _floaty(input)
    zero = x == 0
    px = where(zero, 1.0, x) * math.pi
    return _out(where(zero, 1.0, px.sin() / px), out)


def logit(input: Tensor, eps: float | None = None, *, out=None) -> Tensor:
    """``log(p / (1 - p))``; with ``eps`` the input is first clamped to ``[eps, 1 - eps]``.

    Example::

        >>> torch.logit(torch.tensor([0.25, 0.5, 1.0]))
        tensor([-1.0986,  0.0000,     inf])
        >>> torch.logit(torch.tensor([0.0, 1.0]), eps=1e-6)
        tensor([-13.8155,  13.8023])
    """
    _check("logit", input)
    x = _floaty(input)
    if eps is not None:
        x = x.clamp(builtins.float(eps), 1 - builtins.float(eps))
    return _out((x / (1 - x)).log(), out)


def deg2rad(input: Tensor, *, out=None) -> Tensor:
    """Degrees to radians.

    Example::

        >>> torch.deg2rad(torch.tensor([180.0, 90.0]))
        tensor([3.1416, 1.5708])
    """
    _check("deg2rad", input)
    return _out(_floaty(input) * (math.pi / 180.0), out)


def rad2deg(input: Tensor, *, out=None) -> Tensor:
    """Radians to degrees.

    Example::

        >>> torch.rad2deg(torch.tensor([3.141592653589793, -1.0]))
        tensor([180.0000, -57.2958])
    """
    _check("rad2deg", input)
    return _out(_floaty(input) * (180.0 / math.pi), out)


def sgn(input: Tensor, *, out=None) -> Tensor:
    """``input / |input|`` for complex numbers; for real dtypes the same as :func:`sign`.

    Example::

        >>> torch.sgn(torch.tensor([-2.0, 0.0, 3.0]))
        tensor([-1.,  0.,  1.])
    """
    _check("sgn", input)
    if input.dtype.is_complex:
        from . import _complex_more
        return _out(_complex_more.sgn(input), out)
    return sign(input, out=out)


def positive(input: Tensor) -> Tensor:
    """``+input``: the input itself (bool tensors raise, as in PyTorch).

    Example::

        >>> x = torch.tensor([1, -2])
        >>> torch.positive(x) is x
        True
    """
    _check("positive", input)
    if input.dtype.name == "bool":
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input


def signbit(input: Tensor, *, out=None) -> Tensor:
    """True where the sign bit is set (-0.0 and NaNs with the bit included).

    Example::

        >>> torch.signbit(torch.tensor([-1.0, -0.0, 0.0, 2.0]))
        tensor([ True,  True, False, False])
    """
    return _kernel("signbit", input, out)


def _is_inf_of(input: Tensor, value: float, out) -> Tensor:
    _check("isposinf" if value > 0 else "isneginf", input)
    if not input.dtype.is_floating_point:
        return _out(input != input, out)   # all False: integers are finite
    return _out(input == value, out)


def isposinf(input: Tensor, *, out=None) -> Tensor:
    """True where the element is +inf.

    Example::

        >>> torch.isposinf(torch.tensor([-float('inf'), float('inf'), 1.0]))
        tensor([False,  True, False])
    """
    return _is_inf_of(input, math.inf, out)


def isneginf(input: Tensor, *, out=None) -> Tensor:
    """True where the element is -inf.

    Example::

        >>> torch.isneginf(torch.tensor([-float('inf'), float('inf'), 1.0]))
        tensor([ True, False, False])
    """
    return _is_inf_of(input, -math.inf, out)


def isreal(input: Tensor) -> Tensor:
    """True where the element has no imaginary part: everywhere, for the real dtypes.

    Example::

        >>> torch.isreal(torch.tensor([1.0, float('nan')]))
        tensor([True, True])
    """
    _check("isreal", input)
    return input == input if input.dtype.name == "bool" else (input == input) | (input != input)


def _frexp_exponent(x: Tensor) -> Tensor:
    C = _dtype.float64 if x.dtype.name == "float64" else _dtype.float32
    return ew(UNARY["_frexp_exponent"], x, dtypes=(C, _dtype.int32, _dtype.int32))


def frexp(input: Tensor, *, out=None):
    """Split each element into a mantissa in ``[0.5, 1)`` (by magnitude) and an int32 power of two:
    ``input = mantissa * 2 ** exponent``. Returns ``torch.return_types.frexp(mantissa, exponent)``.

    Example::

        >>> torch.frexp(torch.tensor([8.0, -3.5, 0.0]))
        torch.return_types.frexp(
        mantissa=tensor([ 0.5000, -0.8750,  0.0000]),
        exponent=tensor([4, 2, 0], dtype=torch.int32))
    """
    from ._return_types import frexp as _frexp_type
    _check("frexp", input)
    if not input.dtype.is_floating_point:
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    m = ew(UNARY["_frexp_mantissa"], input)
    e = _frexp_exponent(input.detach())
    if out is not None:
        _out(m, out[0])
        _out(e, out[1])
        return _frexp_type((out[0], out[1]))
    return _frexp_type((m, e))


# ---- torch.<name>_ ---------------------------------------------------------------------------------------
def torch_inplace(name: str):
    """``torch.<name>_(input, ...)``: ``input.<name>_(...)``, the function form PyTorch also exposes."""
    def f(input: Tensor, *args, **kwargs) -> Tensor:
        _check(name + "_", input)
        return getattr(input, name + "_")(*args, **kwargs)
    f.__name__ = f.__qualname__ = name + "_"
    f.__module__ = __name__
    extra = {"clamp": ", min=0.0", "clip": ", min=0.0", "clamp_min": ", 0.0", "clamp_max": ", 0.0"}.get(name, "")
    f.__doc__ = (f"In-place ``torch.{name}``: the result is written into ``input``, which is returned.\n\n"
                 f"    Example::\n\n        >>> x = torch.tensor([0.25, 0.75])\n"
                 f"        >>> torch.{name}_(x{extra}) is x\n        True\n")
    return f


def _polygamma_(self, n):
    from .memory import inplace
    return inplace("polygamma_", lambda x: polygamma(n, x), self)


# ---- the public names (bound by borch_webgpu/_bind.py) ------------------------------------------
api("acosh", acosh, inplace=True, aliases=("arccosh",))
api("asinh", asinh, inplace=True, aliases=("arcsinh",))
api("atanh", atanh, inplace=True, aliases=("arctanh",))
for _n, _f in (("erfc", erfc), ("erfinv", erfinv), ("lgamma", lgamma), ("digamma", digamma), ("i0", None),
               ("sinc", sinc), ("logit", logit), ("deg2rad", deg2rad), ("rad2deg", rad2deg), ("sgn", sgn),
               ("mvlgamma", mvlgamma)):
    api(_n, _f or i0, inplace=True)
api("polygamma", polygamma, method=lambda self, n: polygamma(n, self))
api("polygamma_", method=_polygamma_)
for _n, _f in (("positive", positive), ("signbit", signbit), ("isposinf", isposinf), ("isneginf", isneginf),
               ("isreal", isreal), ("frexp", frexp)):
    api(_n, _f)
# torch.<name>_ of the ops PyTorch exposes so (Tensor.<name>_ comes with each op's record)
for _n in ("abs", "acos", "asin", "atan", "ceil", "cos", "cosh", "erf", "exp", "exp2", "expm1", "floor", "frac",
           "log", "log10", "log1p", "log2", "neg", "negative", "reciprocal", "rsqrt", "sigmoid", "sin",
           "sinh", "sqrt", "square", "tan", "tanh", "trunc", "fix", "clamp", "clip", "clamp_min", "clamp_max",
           "nan_to_num", "acosh", "arccosh", "asinh", "arcsinh", "atanh", "arctanh", "erfc", "i0", "sinc", "logit",
           "deg2rad", "rad2deg"):
    api(_n + "_", torch_inplace(_n), tensor=False)
