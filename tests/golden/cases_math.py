"""Golden cases: the math of ops/special.py, ops/binary_extra.py and ops/fused_extra.py (imported by cases.py).
Compact on purpose: a few shapes, the awkward values, dtype probes, PyTorch's errors and the gradients."""
from __future__ import annotations

import numpy as np

from cases import V, bools, case, golden, ints, tr, uniform

F = np.float32
SPEC = np.array([-0.0, 0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -2.5, 3.0, 20.0, -7.25], dtype=F)


def _unary(fn, lo, hi, *, special=SPEC, grad=True, method=True, inplace=True, dtypes=("int64", "bool"), extra=(),
           kw=None, grad_lo=None):
    kw = dict(kw or {})
    out = [case(fn, uniform((7,), lo, hi), id="(7,)", **kw),
           case(fn, uniform((2, 3, 4), lo, hi), id="(2, 3, 4)", **kw),
           case(fn, uniform((), lo, hi), id="0-d", **kw),
           case(fn, uniform((0, 3), lo, hi), id="empty", **kw),
           case(fn, tr(uniform((5, 3), lo, hi)), id="transposed", **kw)]
    if special is not None:
        out.append(case(fn, special.copy(), id="special values", **kw))
    for dt in dtypes:
        x = bools((3, 4)) if dt == "bool" else ints((3, 4), -3, 4, dtype=dt)
        out.append(case(fn, x, id=f"dtype {dt}", **kw))
    if method:
        out.append(case(f"Tensor.{fn}", uniform((3, 4), lo, hi), id="method", **kw))
    if inplace:
        out.append(case(f"Tensor.{fn}_", uniform((3, 4), lo, hi), id="in-place", **kw))
    if grad:
        glo = lo if grad_lo is None else grad_lo
        out.append(case(fn, uniform((3, 4), glo, hi), id="grad", grad=True, **kw))
        out.append(case(fn, V(uniform((4, 1), glo, hi), ("expand", 4, 5)), id="grad expanded", grad=True, **kw))
    return out + list(extra)


def _wide(fn, lo, hi):
    """256 values across the domain: the kernel's approximation everywhere, not only at a few points."""
    return case(fn, uniform((256,), lo, hi), id=f"wide range [{lo}, {hi})")


golden("acosh")(lambda: _unary("acosh", 1.0, 50.0, grad_lo=1.05, extra=[
    _wide("acosh", 1.0, 1000000.0),
    case("acosh", np.array([1.0, 1.0000001, 1e10, 3e38, 0.999, -1.0], F), id="edges"),
    case("arccosh", uniform((5,), 1.0, 4.0), id="alias"),
    case("Tensor.arccosh_", uniform((5,), 1.0, 4.0), id="alias in-place")]))
golden("asinh")(lambda: _unary("asinh", -20.0, 20.0, extra=[
    _wide("asinh", -10000.0, 10000.0),
    case("asinh", np.array([1e-8, -1e-20, 1e10, -3e38, 1e-3], F), id="edges"),
    case("arcsinh", uniform((5,), -4.0, 4.0), id="alias")]))
golden("atanh")(lambda: _unary("atanh", -0.99, 0.99, extra=[
    _wide("atanh", -0.99999, 0.99999),
    case("atanh", np.array([1e-8, -0.9999, 0.9999999, 1.5], F), id="edges"),
    case("arctanh", uniform((5,), -0.9, 0.9), id="alias")]))
golden("erfc")(lambda: _unary("erfc", -4.0, 9.0, extra=[
    _wide("erfc", -5.0, 10.0),
    case("erfc", np.array([0.3, 0.49, 0.51, 2.0, 5.0, 8.0, 9.0, -6.0], F), id="tails")]))
golden("erfinv")(lambda: _unary("erfinv", -0.999, 0.999, grad_lo=-0.9, extra=[
    _wide("erfinv", -0.99999, 0.99999),
    case("erfinv", np.array([1e-6, -0.5, 0.9, 0.99, 0.9999, -0.999999], F), id="tails")]))
golden("lgamma")(lambda: _unary("lgamma", -6.0, 30.0, grad_lo=0.2, extra=[
    _wide("lgamma", -20.0, 40.0),
    case("lgamma", np.array([1.0, 2.0, 0.1, 1e-5, 100.0, 1e6, -0.5, -2.5, -3.0], F), id="edges")]))
golden("digamma")(lambda: _unary("digamma", 0.05, 30.0, extra=[
    _wide("digamma", -10.0, 50.0),
    case("digamma", np.array([1.0, 1.4616321, 2.0, 0.01, 1000.0, -0.5, -2.25, -3.0, -0.0], F), id="edges"),
    case("digamma", uniform((6,), -5.0, -0.1), id="negative")]))
golden("polygamma")(lambda: [
    case("polygamma", 1, uniform((7,), 0.1, 10.0), id="n=1"),
    case("polygamma", 2, uniform((2, 3), 0.2, 10.0), id="n=2"),
    case("polygamma", 3, uniform((5,), 0.3, 8.0), id="n=3"),
    case("polygamma", 0, uniform((5,), 0.3, 8.0), id="n=0 is digamma"),
    case("polygamma", 1, np.array([0.0, np.inf, np.nan, 1.0, 0.5, 1e4], F), id="special values"),
    case("polygamma", 1, ints((3,), 1, 5), id="dtype int64"),
    case("Tensor.polygamma", uniform((3, 4), 0.5, 5.0), 2, id="method"),
    case("Tensor.polygamma_", uniform((3, 4), 0.5, 5.0), 1, id="in-place"),
    case("polygamma", 1, uniform((3, 4), 0.5, 5.0), id="grad", grad=True),
    case("polygamma", 1, uniform((256,), 0.01, 100.0), id="wide range"),
    case("polygamma", 4, uniform((256,), 0.05, 30.0), id="wide range n=4"),
    case("polygamma", -1, uniform((3,), 0.5, 5.0), id="negative n"),
])
golden("i0")(lambda: _unary("i0", -12.0, 12.0, extra=[
    case("i0", np.array([88.5, -88.7, 88.8, 30.0], F), id="near overflow"),
    _wide("i0", -80.0, 80.0),
    case("i0", np.array([3.7, 3.8, 50.0, -80.0, 1e-4], F), id="edges"),
    case("i0", np.array([0.0, -0.5, 3.7, 3.8, 20.0], F), id="grad at 0 and the seam", grad=True)]))
golden("signbit")(lambda: _unary("signbit", -3.0, 3.0, grad=False, inplace=False, dtypes=("int64", "int32", "bool")))
golden("frexp")(lambda: [
    case("frexp", uniform((7,), -100.0, 100.0), id="(7,)"),
    case("frexp", uniform((2, 3), -1e-3, 1e-3), id="small"),
    case("frexp", np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, 0.5, 8.0, -3.5, 3e38, 2e-38], F), id="special"),
    case("Tensor.frexp", uniform((3, 4), -5.0, 5.0), id="method"),
    case("frexp", uniform((3, 4), -50.0, 50.0), id="grad", grad=True),
    case("frexp", ints((3,), -3, 3), id="int64 raises"),
])
golden("mvlgamma")(lambda: [
    case("mvlgamma", uniform((7,), 1.0, 10.0), 1, id="p=1"),
    case("mvlgamma", uniform((2, 3), 2.0, 10.0), 3, id="p=3"),
    case("Tensor.mvlgamma", uniform((4,), 2.0, 6.0), 2, id="method"),
    case("Tensor.mvlgamma_", uniform((4,), 2.0, 6.0), 2, id="in-place"),
    case("mvlgamma", uniform((3, 4), 2.0, 6.0), 2, id="grad", grad=True),
    case("mvlgamma", uniform((3,), 2.0, 6.0), 0, id="p=0 raises"),
    case("mvlgamma", ints((4,), 1, 6), 1, id="int64 to float"),
])
golden("sinc")(lambda: _unary("sinc", -4.0, 4.0, special=np.array([0.0, -0.0, 1.0, -2.0, 0.5, 1e-4, np.inf, np.nan], F),
                              extra=[case("sinc", np.array([0.0, 1.0, -0.5, 1e-3], F), id="grad at 0", grad=True)]))
golden("logit")(lambda: _unary("logit", 0.01, 0.99, special=np.array([0.0, 1.0, -0.5, 1.5, 0.5, np.nan], F), extra=[
    case("logit", uniform((7,), 0.0, 1.0), eps=1e-3, id="eps"),
    case("logit", np.array([0.0, 1.0, 1e-9, 0.5, -1.0, 2.0], F), eps=1e-6, id="eps clamps"),
    case("logit", np.array([0.0005, 0.2, 0.9999, 0.001], F), eps=1e-3, id="grad eps", grad=True),
    case("Tensor.logit_", uniform((4,), 0.0, 1.0), eps=0.1, id="in-place eps")]))
golden("deg2rad")(lambda: _unary("deg2rad", -360.0, 360.0, dtypes=("int64",)))
golden("rad2deg")(lambda: _unary("rad2deg", -7.0, 7.0, dtypes=("int64",)))
golden("sgn")(lambda: _unary("sgn", -3.0, 3.0, grad=False, dtypes=("int64", "int32", "bool")))
golden("positive")(lambda: [case("positive", uniform((3, 4)), id="float"), case("positive", ints((4,)), id="int64"),
                            case("Tensor.positive", uniform((3,)), id="method"),
                            case("positive", uniform((3, 4)), id="grad", grad=True),
                            case("positive", bools((3,)), id="bool raises")])
for _n in ("isposinf", "isneginf"):
    golden(_n)(lambda _n=_n: [case(_n, SPEC.copy(), id="special"), case(_n, ints((4,)), id="int64"),
                              case(_n, bools((4,)), id="bool"), case(f"Tensor.{_n}", SPEC.reshape(3, 4).copy(),
                                                                      id="method")])
golden("isreal")(lambda: [case("isreal", SPEC.copy(), id="float"), case("isreal", ints((2, 3)), id="int64"),
                          case("isreal", bools((3,)), id="bool"), case("Tensor.isreal", uniform(()), id="method 0-d")])

# ---- binary ------------------------------------------------------------------------------------------------
SA = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 2.5, 3e38, 1e-30, 0.0, np.inf], F)
SB = np.array([0.0, 1.0, -0.0, np.inf, np.inf, -np.inf, 1.0, -np.nan, 3e38, 1e-30, -2.0, -np.inf], F)


def _binary(fn, lo=-3.0, hi=3.0, *, grad=True, inplace=True, method=True, int_probe=True, extra=()):
    out = [case(fn, uniform((7,), lo, hi), uniform((7,), lo, hi), id="(7,)"),
           case(fn, uniform((3, 1), lo, hi), uniform((1, 4), lo, hi), id="broadcast"),
           case(fn, uniform((), lo, hi), uniform((2, 3), lo, hi), id="0-d with (2, 3)"),
           case(fn, uniform((0, 3), lo, hi), uniform((3,), lo, hi), id="empty"),
           case(fn, tr(uniform((5, 3), lo, hi)), uniform((5,), lo, hi), id="transposed"),
           case(fn, SA.copy(), SB.copy(), id="special values")]
    if int_probe:
        out.append(case(fn, ints((3,), -3, 3), ints((3,), 1, 3), id="int64 (dtype probe)"))
        out.append(case(fn, uniform((3,), lo, hi), ints((3,), 1, 3), id="float32 and int64"))
    if method:
        out.append(case(f"Tensor.{fn}", uniform((3, 4), lo, hi), uniform((4,), lo, hi), id="method"))
    if inplace:
        out.append(case(f"Tensor.{fn}_", uniform((3, 4), lo, hi), uniform((4,), lo, hi), id="in-place"))
    if grad:
        out.append(case(fn, uniform((3, 4), lo, hi), uniform((3, 4), lo, hi), id="grad", grad=True))
        out.append(case(fn, uniform((3, 1), lo, hi), uniform((4,), lo, hi), id="grad broadcast", grad=True))
    return out + list(extra)


golden("hypot")(lambda: _binary("hypot", extra=[
    case("hypot", np.array([1e30, 1e-30, 3e38, 0.0, 1e38, 2e38], F), np.array([1e30, 1e-30, 3e38, 0.0, 1e38, 1.0], F),
         id="no overflow"),
    case("hypot", uniform((3,)), 2.0, id="scalar raises")]))
golden("logaddexp")(lambda: _binary("logaddexp", -50.0, 50.0, inplace=False, extra=[
    case("logaddexp", np.array([1000.0, -1000.0, 0.0, -np.inf], F), np.array([1000.0, -1000.0, 80.0, 1.0], F),
         id="large")]))
golden("logaddexp2")(lambda: _binary("logaddexp2", -50.0, 50.0, inplace=False))
golden("copysign")(lambda: _binary("copysign", grad=False, extra=[
    case("copysign", uniform((3, 4)), -2.0, id="grad", grad=True),
    case("copysign", uniform((3, 4)), ints((4,)), id="grad int64 other", grad=True),
    case("copysign", uniform((4,)), -1.0, id="scalar other"),
    case("copysign", ints((4,)), ints((4,)), id="int64 to float"),
    case("copysign", np.array([0.0, 2.0, -3.0], F), np.array([-1, -1, 1]), id="grad at 0", grad=True)]))
golden("nextafter")(lambda: _binary("nextafter", int_probe=False, grad=False, extra=[
    case("nextafter", np.array([1.0, 1.0, -1.0, 3e38, np.inf, 2.5], F), np.array([2.0, 0.0, -2.0, np.inf, 0.0, 2.5], F),
         id="directions"),
    case("nextafter", uniform((3, 4)), V(ints((3, 4)), ("float",)), id="grad", grad=True),
    case("nextafter", uniform((3, 1)), V(ints((4,)), ("float",)), id="grad broadcast", grad=True),
    case("nextafter", ints((3,)), ints((3,)), id="int64 raises")]))
golden("xlogy")(lambda: _binary("xlogy", 0.0, 3.0, extra=[
    case("xlogy", np.array([0.0, 0.0, 0.0, 1.0, 2.0, -1.0], F), np.array([0.0, np.nan, -1.0, 0.0, -1.0, np.inf], F),
         id="zeros and NaN"),
    case("xlogy", 2.0, uniform((4,), 0.1, 3.0), id="scalar self"),
    case("xlogy", uniform((4,), 0.1, 3.0), 3, id="scalar other"),
    case("xlogy", np.array([0.0, 1.5, 0.0, 2.0], F), np.array([2.0, 0.5, 1.0, 3.0], F), id="grad at x = 0",
         grad=True)]))
golden("heaviside")(lambda: [
    case("heaviside", np.array([-1.5, 0.0, -0.0, 2.0, np.nan, np.inf], F), np.array([0.5], F), id="float"),
    case("heaviside", uniform((3, 1)), uniform((1, 4)), id="broadcast"),
    case("heaviside", ints((5,), -2, 2), ints((5,)), id="int64"),
    case("heaviside", bools((4,)), bools((4,)), id="bool"),
    case("Tensor.heaviside", np.array([0.0, 1.0], F), np.array([7.0, 7.0], F), id="method"),
    case("Tensor.heaviside_", np.array([0.0, -1.0], F), np.array([7.0, 7.0], F), id="in-place"),
    case("heaviside", uniform((3,)), ints((3,)), id="different dtypes raise"),
])
golden("ldexp")(lambda: [
    case("ldexp", uniform((7,)), ints((7,), -10, 10), id="float and int"),
    case("ldexp", ints((4,)), ints((4,), 0, 5), id="int64"),
    case("ldexp", uniform((3, 1)), uniform((1, 4)), id="float exponents"),
    case("Tensor.ldexp", uniform((4,)), ints((4,), -3, 3), id="method"),
    case("Tensor.ldexp_", uniform((4,)), ints((4,), -3, 3), id="in-place"),
    case("ldexp", uniform((3, 4)), uniform((3, 4)), id="grad", grad=True),
])
golden("float_power")(lambda: [
    case("float_power", uniform((5,), 0.0, 3.0), uniform((5,)), id="float32 to float64"),
    case("float_power", ints((4,), 1, 5), 2, id="int64 and scalar"),
    case("float_power", 2, ints((4,), -2, 5), id="scalar base"),
    case("float_power", uniform((3, 1), 0.1, 2.0), uniform((4,)), id="broadcast"),
    case("Tensor.float_power", uniform((3,), 0.1, 2.0), 0.5, id="method"),
    case("Tensor.float_power_", uniform((3,), 0.1, 2.0), 2, id="in-place on float32 raises"),
    case("float_power", uniform((3, 4), 0.1, 3.0), uniform((3, 4)), id="grad", grad=True),
])


def _int_binary(fn, *, small=True, extra=()):
    out = [case(fn, ints((7,), -20, 20), ints((7,), -20, 20), id="(7,)"),
           case(fn, ints((3, 1), -9, 9), ints((1, 4), -9, 9), id="broadcast"),
           case(fn, ints((5,), -50, 50, dtype="int32"), ints((5,), -50, 50, dtype="int32"), id="int32"),
           case(fn, ints((3,), -5, 5), ints((3,), -5, 5, dtype="int32"), id="int64 and int32"),
           case(f"Tensor.{fn}", ints((4,), -9, 9), ints((4,), -9, 9), id="method"),
           case(f"Tensor.{fn}_", ints((4,), -9, 9), ints((4,), -9, 9), id="in-place"),
           case(fn, uniform((3,)), uniform((3,)), id="float raises")]
    return out + list(extra)


golden("gcd")(lambda: _int_binary("gcd", extra=[
    case("gcd", np.array([0, 0, -12, 7, 2**30, 1000000007]), np.array([0, -5, 18, 0, 2**20, 999999937]), id="edges"),
    case("gcd", bools((3,)), bools((3,)), id="bool raises")]))
golden("lcm")(lambda: _int_binary("lcm", extra=[
    case("lcm", np.array([0, 0, -12, 7, 46340]), np.array([0, -5, 18, 0, 46341]), id="edges")]))
for _n, _sym in (("and", "__and__"), ("or", "__or__"), ("xor", "__xor__")):
    golden(f"bitwise_{_n}")(lambda _n=_n, _sym=_sym: _int_binary(f"bitwise_{_n}", extra=[
        case(f"bitwise_{_n}", bools((5,)), bools((5,)), id="bool"),
        case(f"bitwise_{_n}", bools((4,)), ints((4,)), id="bool and int64"),
        case(f"bitwise_{_n}", ints((4,)), 6, id="scalar other"),
        case(f"bitwise_{_n}", 6, ints((4,)), id="scalar self"),
        case(f"bitwise_{_n}", np.array([2**31 - 1, -2**31, -1, 0], dtype="int32"), np.array([-1, -1, 12345, -1],
                                                                                           dtype="int32"),
             id="int32 extremes"),
        case(f"Tensor.{_sym}", ints((3, 4)), ints((4,)), id="operator"),
        case(f"Tensor.__r{_sym[2:]}", ints((3,)), 5, id="reflected operator"),
        case(f"Tensor.__i{_sym[2:]}", ints((3,)), ints((3,)), id="in-place operator"),
        case(f"Tensor.{_sym}", bools((3,)), bools((3,)), id="operator on bool"),
        case(f"Tensor.{_sym}", uniform((3,)), uniform((3,)), id="operator on float raises"),
        case(f"bitwise_{_n}", ints((3,)), 1.5, id="float scalar raises"),
        case(f"Tensor.bitwise_{_n}_", ints((3,)), uniform((3,)), id="in-place with a float other raises")]))
golden("bitwise_not")(lambda: [
    case("bitwise_not", ints((7,), -100, 100), id="int64"),
    case("bitwise_not", np.array([0, -1, 2**31 - 1, -2**31], dtype="int32"), id="int32 extremes"),
    case("bitwise_not", bools((5,)), id="bool"),
    case("Tensor.bitwise_not", ints((3, 4)), id="method"),
    case("Tensor.bitwise_not_", ints((4,)), id="in-place"),
    case("Tensor.__invert__", ints((4,)), id="operator"),
    case("Tensor.__invert__", bools((4,)), id="operator on bool"),
    case("bitwise_not", uniform((3,)), id="float raises"),
    case("Tensor.__invert__", uniform((3,)), id="operator on float raises"),
])


def _shift(fn, sym):
    return [
        case(fn, ints((7,), -50, 50), ints((7,), 0, 8), id="int64"),
        case(fn, ints((3, 1), -9, 9), ints((1, 4), 0, 5), id="broadcast"),
        case(fn, np.array([1, -5, 7, 3, -1, 2**20], dtype="int32"), np.array([31, 1, 32, 40, 31, 11], dtype="int32"),
             id="int32 past the width"),
        case(fn, np.array([5, -5, 3, -8]), np.array([-1, -1, 64, 70]), id="negative and huge shifts"),
        case(fn, ints((4,), -9, 9), 2, id="scalar other"),
        case(fn, 3, ints((4,), 0, 4), id="scalar self"),
        case(f"Tensor.{fn}", ints((4,), -9, 9), ints((4,), 0, 4), id="method"),
        case(f"Tensor.{fn}_", ints((4,), -9, 9), ints((4,), 0, 4), id="in-place"),
        case(f"Tensor.__{sym}__", ints((3, 4), -9, 9), 3, id="operator"),
        case(f"Tensor.__r{sym}__", ints((3,), 0, 4), 7, id="reflected operator"),
        case(f"Tensor.__i{sym}__", ints((3,), -9, 9), ints((3,), 0, 3), id="in-place operator"),
        case(fn, uniform((3,)), 1, id="float raises"),
        case(fn, bools((3,)), bools((3,)), id="bool raises"),
    ]


golden("bitwise_left_shift")(lambda: _shift("bitwise_left_shift", "lshift") + [
    case("bitwise_left_shift", np.array([1, -1, 3]), np.array([30, 31, 20]), id="int64 up to 2**31")])
golden("bitwise_right_shift")(lambda: _shift("bitwise_right_shift", "rshift"))
golden("isin")(lambda: [
    case("isin", ints((3, 4), -5, 5), ints((5,), -5, 5), id="int64"),
    case("isin", uniform((6,)).round(), np.array([0.0, 1.0, np.nan], F), id="float with NaN"),
    case("isin", ints((4,), 0, 5), 2, id="scalar test"),
    case("isin", 3, ints((4,), 0, 5), id="scalar element"),
    case("isin", ints((2, 3), 0, 5), ints((2, 2), 0, 5), invert=True, id="invert"),
    case("isin", ints((3,), 0, 5), np.zeros((0,), dtype="int64"), id="empty test"),
    case("isin", ints((3,), 0, 5), uniform((4,)).round(), id="int64 and float"),
])

# ---- fused ----------------------------------------------------------------------------------------------------
golden("addcmul")(lambda: [
    case("addcmul", uniform((3, 4)), uniform((3, 4)), uniform((3, 4)), id="same shape"),
    case("addcmul", uniform((4,)), uniform((3, 1)), uniform((1, 4)), value=0.5, id="broadcast value"),
    case("addcmul", ints((3,)), ints((3,)), ints((3,)), value=2, id="int64"),
    case("addcmul", ints((3,)), ints((3,)), ints((3,)), value=1.5, id="int64, float value truncated"),
    case("Tensor.addcmul", uniform((3,)), uniform((3,)), uniform((3,)), value=-2.0, id="method"),
    case("Tensor.addcmul_", uniform((2, 3)), uniform((3,)), uniform((2, 3)), value=3.0, id="in-place"),
    case("addcmul", uniform((3, 4)), uniform((3, 1)), uniform((4,)), value=0.25, id="grad", grad=True),
])
golden("addcdiv")(lambda: [
    case("addcdiv", uniform((3, 4)), uniform((3, 4)), uniform((3, 4), 0.5, 3.0), id="same shape"),
    case("addcdiv", uniform((4,)), uniform((3, 1)), uniform((1, 4), 0.5, 3.0), value=0.5, id="broadcast value"),
    case("addcdiv", uniform((3,)), uniform((3,)), np.array([0.0, -0.0, 1.0], F), id="division by zero"),
    case("Tensor.addcdiv", uniform((3,)), uniform((3,)), uniform((3,), 1.0, 2.0), value=-2.0, id="method"),
    case("Tensor.addcdiv_", uniform((2, 3)), uniform((3,)), uniform((2, 3), 1.0, 2.0), value=3.0, id="in-place"),
    case("addcdiv", uniform((3, 4)), uniform((3, 1)), uniform((4,), 0.5, 2.0), value=0.25, id="grad", grad=True),
    case("addcdiv", ints((3,)), ints((3,)), ints((3,), 1, 3), id="integer division raises"),
])
golden("addmv")(lambda: [
    case("addmv", uniform((3,)), uniform((3, 5)), uniform((5,)), id="plain"),
    case("addmv", uniform((1,)), uniform((4, 2)), uniform((2,)), beta=0.5, alpha=2.0, id="broadcast input"),
    case("addmv", np.array([np.nan, 1.0], F), uniform((2, 3)), uniform((3,)), beta=0, id="beta 0 ignores NaN"),
    case("Tensor.addmv", uniform((3,)), uniform((3, 2)), uniform((2,)), id="method"),
    case("Tensor.addmv_", uniform((3,)), uniform((3, 2)), uniform((2,)), alpha=-1.0, id="in-place"),
    case("addmv", uniform((3,)), uniform((3, 4)), uniform((4,)), beta=0.5, alpha=1.5, id="grad", grad=True),
    case("addmv", uniform((3,)), uniform((3, 4)), uniform((3,)), id="size mismatch raises"),
])
golden("addr")(lambda: [
    case("addr", uniform((3, 4)), uniform((3,)), uniform((4,)), id="plain"),
    case("addr", uniform((4,)), uniform((3,)), uniform((4,)), beta=2.0, alpha=0.5, id="broadcast input"),
    case("addr", ints((2, 2)), ints((2,)), ints((2,)), id="int64"),
    case("Tensor.addr", uniform((2, 3)), uniform((2,)), uniform((3,)), id="method"),
    case("Tensor.addr_", uniform((2, 3)), uniform((2,)), uniform((3,)), beta=0.0, id="in-place"),
    case("addr", uniform((3, 4)), uniform((3,)), uniform((4,)), alpha=2.0, id="grad", grad=True),
    case("addr", uniform((3, 4)), uniform((3, 1)), uniform((4,)), id="2-D vec1 raises"),
])
golden("addbmm")(lambda: [
    case("addbmm", uniform((3, 4)), uniform((5, 3, 2)), uniform((5, 2, 4)), id="plain"),
    case("addbmm", uniform((4,)), uniform((2, 3, 2)), uniform((2, 2, 4)), beta=0.5, alpha=2.0, id="broadcast input"),
    case("Tensor.addbmm", uniform((2, 2)), uniform((3, 2, 4)), uniform((3, 4, 2)), id="method"),
    case("Tensor.addbmm_", uniform((2, 2)), uniform((3, 2, 4)), uniform((3, 4, 2)), alpha=-1.0, id="in-place"),
    case("addbmm", uniform((2, 3)), uniform((4, 2, 5)), uniform((4, 5, 3)), beta=2.0, id="grad", grad=True),
    case("addbmm", uniform((2, 3)), uniform((4, 2, 5)), uniform((3, 5, 3)), id="batch mismatch raises"),
])
golden("inner")(lambda: [
    case("inner", uniform((4,)), uniform((4,)), id="1-D"),
    case("inner", uniform((2, 3)), uniform((4, 3)), id="2-D"),
    case("inner", uniform((2, 1, 3)), uniform((3,)), id="3-D and 1-D"),
    case("inner", uniform(()), uniform((2, 3)), id="0-d"),
    case("Tensor.inner", uniform((3, 2)), uniform((2,)), id="method"),
    case("inner", uniform((2, 3)), uniform((4, 3)), id="grad", grad=True),
    case("inner", uniform((2, 3)), uniform((3, 2)), id="mismatch raises"),
])
golden("vdot")(lambda: [
    case("vdot", uniform((5,)), uniform((5,)), id="plain"),
    case("Tensor.vdot", uniform((3,)), uniform((3,)), id="method"),
    case("vdot", uniform((4,)), uniform((4,)), id="grad", grad=True),
    case("vdot", uniform((2, 2)), uniform((2, 2)), id="2-D raises"),
])
golden("dist")(lambda: [
    case("dist", uniform((3, 4)), uniform((3, 4)), id="p=2"),
    case("dist", uniform((3, 4)), uniform((4,)), 1, id="p=1 broadcast"),
    case("dist", uniform((5,)), uniform((5,)), float("inf"), id="p=inf"),
    case("dist", np.array([1.0, 2.0, 3.0], F), np.array([1.0, 0.0, 3.0], F), 0, id="p=0"),
    case("dist", uniform((5,)), uniform((5,)), 3.5, id="p=3.5"),
    case("Tensor.dist", uniform((3,)), uniform((3,)), id="method"),
    case("dist", uniform((3, 4)), uniform((3, 4)), id="grad", grad=True),
    case("dist", uniform((3, 4)), uniform((4,)), 1, id="grad p=1", grad=True),
    case("dist", ints((3,)), ints((3,)), id="int64 raises"),
])
golden("renorm")(lambda: [
    case("renorm", uniform((3, 4)), 2, 0, 1.0, id="rows"),
    case("renorm", uniform((3, 4, 2)), 1, 1, 2.0, id="p=1 dim 1"),
    case("renorm", uniform((3, 4)), float("inf"), -1, 0.5, id="p=inf"),
    case("renorm", uniform((4,)), 2, 0, 1.0, id="1-D raises"),
    case("Tensor.renorm", uniform((2, 3)), 2, 0, 1.5, id="method"),
    case("Tensor.renorm_", uniform((2, 3)), 2, 1, 1.0, id="in-place"),
    case("renorm", uniform((3, 4)), 2, 0, 1.0, id="grad", grad=True),
    case("renorm", uniform((3, 4)), 2, 0, -1.0, id="negative maxnorm raises"),
    case("renorm", uniform((3, 4)), 0, 0, 1.0, id="p=0 raises"),
    case("renorm", ints((3, 4)), 2, 0, 1.0, id="int64 raises"),
])
OPS = sorted({"acosh", "asinh", "atanh", "erfc", "erfinv", "lgamma", "digamma", "polygamma", "i0", "signbit",
              "frexp", "mvlgamma", "sinc", "logit", "deg2rad", "rad2deg", "sgn", "positive", "isposinf", "isneginf",
              "isreal", "hypot", "logaddexp", "logaddexp2", "copysign", "nextafter", "xlogy", "heaviside", "ldexp",
              "float_power", "gcd", "lcm", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not",
              "bitwise_left_shift", "bitwise_right_shift", "isin", "addcmul", "addcdiv", "addmv", "addr", "addbmm",
              "inner", "vdot", "dist", "renorm"})
