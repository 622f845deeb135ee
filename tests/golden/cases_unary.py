"""Golden cases: unary elementwise ops and activations (imported by cases.py)."""
from __future__ import annotations

import numpy as np

from cases import SPECIAL, V, _rng, big_in, bools, case, golden, ints, nonleaf, strided, tr, uniform

# SPECIAL without the huge finite values: trigonometric functions of 1e38 depend on the argument
# reduction (GPUs do not do it exactly), so those are compared on these only.
TAME = np.array([-0.0, 0.0, np.inf, -np.inf, np.nan, 2e-38, -1e-30, 1.0, -2.5, 0.5, -0.75, 3.0], dtype=np.float32)

SHAPES = [(7,), (3, 4), (2, 3, 4), (), (0,), (2, 0, 3), (1, 1, 1, 5), (257,)]


def _gen(lo, hi, gen):
    return gen if gen is not None else (lambda shape: uniform(shape, lo, hi))


def unary_battery(fn, lo, hi, *, method=None, inplace=None, kw=None, grad=True, special=SPECIAL, invalid=None,
                  int_range=(-4, 4), dtypes=("int64", "int32", "bool"), big=True, gen=None, seed=100,
                  big_range=None):
    """The standard cases for a unary op ``fn`` (a torch name) on values in [lo, hi).

    method: "Tensor.x" or None; inplace: "Tensor.x_", "kw" (fn with inplace=True) or None;
    kw: kwargs for every call; special: awkward values (or None); invalid: out-of-domain values (NaN results);
    gen: a function shape -> float32 array replacing uniform(lo, hi)."""
    kw = dict(kw or {})
    g = _gen(lo, hi, gen)
    out = []
    for s in SHAPES:
        out.append(case(fn, g(s), id=f"{s}", **kw))
    if method:
        out.append(case(method, g((3, 4)), id="method", **kw))
        out.append(case(method, g(()), id="method 0-d", **kw))

    def ip(x, id, grad=False):  # noqa: A002
        if inplace == "kw":
            return case(fn, x, id=id, grad=grad, **kw, inplace=True)
        return case(inplace, x, id=id, grad=grad, **kw)

    if inplace:
        out.append(ip(g((3, 4)), "in-place"))
        out.append(ip(g(()), "in-place 0-d"))
        out.append(ip(tr(g((5, 3))), "in-place on a transposed view"))
        out.append(ip(ints((3, 4), *int_range), "in-place int64 (dtype probe)"))
    for dt in dtypes:
        x = bools((3, 4)) if dt == "bool" else ints((3, 4), *int_range, dtype=dt)
        out.append(case(fn, x, id=f"dtype {dt} (dtype probe)", **kw))
    if special is not None:
        out.append(case(fn, special.copy(), id="special values", **kw))
        if method:
            out.append(case(method, special.reshape(3, -1).copy(), id="special values method", **kw))
    if invalid is not None:
        out.append(case(fn, np.asarray(invalid, np.float32), id="outside the domain", **kw))
    out.append(case(fn, tr(g((6, 4))), id="transposed", **kw))
    out.append(case(fn, strided(g((3, 10))), id="strided slice", **kw))
    out.append(case(fn, V(g((4, 1)), ("expand", 4, 5)), id="expanded (stride 0)", **kw))
    out.append(case(fn, V(g((2, 3, 4)), ("permute", 2, 0, 1)), id="permuted", **kw))
    if grad:
        out.append(case(fn, g((3, 4)), id="grad", grad=True, **kw))
        out.append(case(fn, g(()), id="grad 0-d", grad=True, **kw))
        out.append(case(fn, g((0, 3)), id="grad empty", grad=True, **kw))
        out.append(case(fn, tr(g((5, 3))), id="grad transposed", grad=True, **kw))
        out.append(case(fn, strided(g((3, 10))), id="grad strided", grad=True, **kw))
        out.append(case(fn, V(g((4, 1)), ("expand", 4, 5)), id="grad expanded (stride 0)", grad=True, **kw))
        if method:
            out.append(case(method, g((2, 5)), id="grad method", grad=True, **kw))
        if inplace:
            out.append(ip(nonleaf(g((3, 4))), "grad in-place on a non-leaf", grad=True))
    if big:
        blo, bhi = big_range or (lo, hi)
        out.append(case(fn, big_in((1 << 20,), blo, bhi, seed), id="1M", **kw))
        out.append(case(fn, big_in((1024, 1024), blo, bhi, seed + 1, ("t",)), id="1024x1024 transposed", **kw))
        if grad:
            out.append(case(fn, big_in((1024, 1024), blo, bhi, seed + 2), id="1M grad", grad=True, **kw))
    return out


def _reg(name, fn, lo, hi, **kw):
    golden(name)(lambda: unary_battery(fn, lo, hi, **kw))


def _signed(lo, hi):
    """Values with lo <= |x| < hi and random signs (away from zero)."""
    def g(shape):
        return np.asarray((uniform(shape, lo, hi) * np.where(bools(shape), 1, -1)), dtype=np.float32)
    return g


def _std(name, lo, hi, **kw):
    _reg(name, name, lo, hi, method=f"Tensor.{name}", inplace=f"Tensor.{name}_", **kw)


_std("neg", -3, 3)
_std("abs", -3, 3)
_std("sign", -3, 3)
_std("exp", -5, 5, big_range=(-10, 10))
_std("exp2", -6, 6)
_std("log", 0.01, 10, invalid=[-1.0, -0.5, 0.0, -0.0, -np.inf, 1.0], int_range=(0, 9))
_std("log2", 0.01, 10, invalid=[-1.0, -0.5, 0.0, -0.0, -np.inf, 2.0], int_range=(0, 9))
_std("log10", 0.01, 10, invalid=[-1.0, -0.5, 0.0, -0.0, -np.inf, 100.0], int_range=(0, 9))
_std("log1p", -0.9, 5, invalid=[-1.5, -1.0, -2.0, -np.inf, 0.0, -0.0], int_range=(0, 9))
_std("expm1", -3, 3)
_std("sqrt", 0.01, 10, invalid=[-1.0, -0.25, -0.0, 0.0, -np.inf, 4.0], int_range=(0, 9))
_std("rsqrt", 0.05, 10, invalid=[-1.0, -0.25, -0.0, 0.0, -np.inf, 4.0], int_range=(0, 9))
_std("square", -3, 3)
_std("reciprocal", 0.25, 3, gen=_signed(0.25, 3), invalid=[0.0, -0.0, 4.0, -0.5])
_std("sin", -6, 6, special=TAME)
_std("cos", -6, 6, special=TAME)
_std("tan", -1.2, 1.2, special=TAME)
_std("asin", -0.99, 0.99, invalid=[1.5, -1.5, 2.0, np.inf, 1.0, -1.0], int_range=(-1, 1))
_std("acos", -0.99, 0.99, invalid=[1.5, -1.5, 2.0, np.inf, 1.0, -1.0], int_range=(-1, 1))
_std("atan", -5, 5)
_std("tanh", -4, 4)
_std("sinh", -4, 4)
_std("cosh", -4, 4)
_std("frac", -5, 5)
_std("erf", -3, 3)
_std("trunc", -5, 5)
_std("floor", -5, 5)
_std("ceil", -5, 5)


@golden("round")
def _round():
    out = unary_battery("round", -5, 5, method="Tensor.round", inplace="Tensor.round_")
    halves = np.arange(-4.5, 5.0, 1.0).astype(np.float32)
    out.append(case("round", halves, id="halves round to even"))
    out.append(case("round", np.array([0.49999997, -0.49999997, 2.5000002, 1e7 + 0.5, 8388609.0], np.float32),
                    id="near halves and large"))
    vals = np.array([1.25, -2.75, 0.125, 3.0, -0.375, 12.5], np.float32)
    out.append(case("round", vals, decimals=1, id="decimals=1 exact halves"))
    out.append(case("round", np.array([1234.0, -1250.0, 1350.0, 75.0], np.float32), decimals=-2, id="decimals=-2"))
    return out


@golden("sigmoid")
def _sigmoid():
    out = unary_battery("sigmoid", -6, 6, method="Tensor.sigmoid", inplace="Tensor.sigmoid_", big_range=(-20, 20))
    out.append(case("nn.functional.sigmoid", uniform((3, 4), -6, 6), id="F.sigmoid"))
    out.append(case("sigmoid", np.array([-80.0, -50.0, -20.0, 20.0, 88.0, 100.0], np.float32), id="saturating"))
    return out


@golden("relu")
def _relu():
    out = unary_battery("relu", -3, 3, method="Tensor.relu", inplace="Tensor.relu_", int_range=(-9, 9))
    out.append(case("nn.functional.relu", uniform((3, 4)), id="F.relu"))
    out.append(case("nn.functional.relu", uniform((3, 4)), inplace=True, id="F.relu inplace=True"))
    out.append(case("nn.functional.relu", uniform((3, 4)), id="F.relu grad", grad=True))
    out.append(case("relu", np.array([-1.0, -0.0, 0.0, 1.0, 2e-38, -2e-38], np.float32), id="zero boundary",
                    grad=True))
    return out


@golden("tanh")
def _tanh():
    out = unary_battery("tanh", -4, 4, method="Tensor.tanh", inplace="Tensor.tanh_")
    out.append(case("nn.functional.tanh", uniform((3, 4)), id="F.tanh"))
    out.append(case("tanh", np.array([-30.0, -9.5, 9.5, 30.0, 1e-4, -1e-4], np.float32), id="saturating"))
    return out


def _mixed_special(shape):
    """Finite values mixed with NaN and +-inf."""
    a = uniform(shape, -3, 3)
    pick = _rng.integers(0, 4, size=shape)
    a = np.where(pick == 0, np.nan, np.where(pick == 1, np.inf * np.sign(a), a))
    return np.asarray(a, dtype=np.float32)


def _predicate(name):
    def gen():
        out = unary_battery(name, -3, 3, method=f"Tensor.{name}", grad=False, gen=_mixed_special, big=False)
        out.append(case(name, ints((20,), -100, 100), id="int64 values"))
        out.append(case(name, np.array([3e38, -3e38, 2e-38, -0.0, 65504.0], np.float32), id="finite extremes"))
        out.append(case(name, big_in((1 << 20,), -1, 1, 150), id="1M"))
        return out
    golden(name)(gen)


for _n in ("isnan", "isinf", "isfinite"):
    _predicate(_n)


@golden("logical_not")
def _logical_not():
    def g(shape):
        a = uniform(shape, -2, 2)
        return np.asarray(np.where(np.abs(a) < 0.8, 0.0, a), dtype=np.float32)
    out = unary_battery("logical_not", -2, 2, method="Tensor.logical_not", inplace="Tensor.logical_not_",
                        grad=False, gen=g, int_range=(-1, 1))
    out.append(case("logical_not", ints((4, 5), -1, 1, dtype="int32"), id="int32 with zeros"))
    out.append(case("Tensor.logical_not_", bools((6,)), id="in-place bool"))
    return out


@golden("nan_to_num")
def _nan_to_num():
    out = unary_battery("nan_to_num", -3, 3, method="Tensor.nan_to_num", inplace="Tensor.nan_to_num_",
                        gen=_mixed_special)
    for kw in ({"nan": 0.5}, {"posinf": 10.0}, {"neginf": -10.0}, {"nan": -1.0, "posinf": 2.0, "neginf": -3.0},
               {"nan": 0.0, "posinf": 1e30}):
        out.append(case("nan_to_num", _mixed_special((3, 5)), id=f"kwargs {kw}", **kw))
        out.append(case("Tensor.nan_to_num", _mixed_special((2, 4)), id=f"method kwargs {kw}", **kw))
    out.append(case("nan_to_num", _mixed_special((3, 4)), 0.0, 5.0, -5.0, id="positional nan posinf neginf"))
    out.append(case("nan_to_num", _mixed_special((3, 4)), nan=1.0, posinf=3.0, neginf=-3.0, id="grad kwargs",
                    grad=True))
    out.append(case("Tensor.nan_to_num_", _mixed_special((3, 4)), nan=2.0, id="in-place kwargs"))
    return out


@golden("clamp")
def _clamp():
    out = []
    x = lambda s=(3, 4): uniform(s, -3, 3)  # noqa: E731
    for lo, hi in ((-1.0, 1.0), (-0.5, 2.0), (0, 1), (-2, None), (None, 1.5), (1.0, -1.0), (2.0, 2.0)):
        kw = {k: v for k, v in (("min", lo), ("max", hi)) if v is not None}
        out.append(case("clamp", x(), id=f"kwargs {kw}", **kw))
        out.append(case("Tensor.clamp", x((2, 5)), id=f"method {kw}", **kw))
    out.append(case("clamp", x(), -1.0, 1.0, id="positional min max"))
    out.append(case("clamp", x(), -1.0, id="positional min only"))
    out.append(case("clamp", x(), None, 0.5, id="positional None max"))
    out.append(case("clip", x(), -1.0, 1.0, id="clip"))
    out.append(case("clip", x(), min=-0.5, id="clip min only"))
    out.append(case("Tensor.clip", x(), max=0.5, id="clip method max only"))
    out.append(case("Tensor.clip_", x(), -1.0, 1.0, id="clip_ in-place"))
    out.append(case("clamp", x(), id="error: neither min nor max"))
    # tensor bounds, broadcasting
    out.append(case("clamp", x(), uniform((3, 4), -2, 0), uniform((3, 4), 0, 2), id="tensor min max"))
    out.append(case("clamp", x(), uniform((4,), -2, 0), uniform((3, 1), 0, 2), id="tensor min max broadcast"))
    out.append(case("clamp", x(), min=uniform((4,), -2, 0), id="tensor min only"))
    out.append(case("clamp", x(), max=uniform((3, 1), -1, 1), id="tensor max only"))
    out.append(case("clamp", x((4,)), uniform((3, 4), -2, 0), uniform((3, 4), 0, 2), id="tensor bounds broadcast x"))
    out.append(case("clamp", x(), np.array(-1.0, np.float32), np.array(1.0, np.float32),
                    id="0-d tensor bounds"))
    out.append(case("clamp", x(), uniform((3,), -2, 0), uniform((3,), 0, 2), id="error: bounds not broadcastable"))
    # dtypes
    out.append(case("clamp", ints((3, 4), -9, 9), -3, 4, id="int64 int bounds"))
    out.append(case("clamp", ints((3, 4), -9, 9, "int32"), -3, 4, id="int32 int bounds"))
    out.append(case("clamp", ints((3, 4), -9, 9), -2.5, 3.5, id="int64 float bounds"))
    out.append(case("clamp", ints((3, 4), -9, 9), ints((3, 4), -5, 0), ints((3, 4), 0, 5), id="int64 tensor bounds"))
    out.append(case("clamp", bools((3, 4)), 0, 1, id="bool (dtype probe)"))
    out.append(case("clamp", x(), ints((3, 4), -2, 0), ints((3, 4), 0, 2), id="float with int tensor bounds"))
    # awkward values: NaN passes through; a NaN bound gives NaN
    out.append(case("clamp", SPECIAL.copy(), -1.0, 1.0, id="special values"))
    out.append(case("clamp", SPECIAL.copy(), min=0.0, id="special values min only"))
    out.append(case("clamp", x(), float("nan"), 1.0, id="nan min"))
    out.append(case("clamp", x(), -1.0, float("inf"), id="inf max"))
    out.append(case("clamp", x(), SPECIAL[:4].copy(), None, id="special tensor min"))
    # shapes and views
    out.append(case("clamp", x(()), -1.0, 1.0, id="0-d"))
    out.append(case("clamp", x((0, 3)), -1.0, 1.0, id="empty"))
    out.append(case("clamp", tr(x((5, 3))), -1.0, 1.0, id="transposed"))
    out.append(case("clamp", strided(x((3, 10))), min=0.0, id="strided"))
    # in-place
    out.append(case("Tensor.clamp_", x(), -1.0, 1.0, id="in-place"))
    out.append(case("Tensor.clamp_", x(), max=0.0, id="in-place max only"))
    out.append(case("Tensor.clamp_", ints((3, 4), -9, 9), -2, 2, id="in-place int64"))
    out.append(case("Tensor.clamp_", tr(x((5, 3))), -1.0, 1.0, id="in-place transposed view"))
    out.append(case("Tensor.clamp_", x(), uniform((4,), -2, 0), uniform((3, 1), 0, 2), id="in-place tensor bounds"))
    # gradients (values kept off the bounds)
    out.append(case("clamp", x(), -1.0, 1.0, id="grad", grad=True))
    out.append(case("clamp", x(), min=0.0, id="grad min only", grad=True))
    out.append(case("clamp", x(()), max=0.0, id="grad 0-d max only", grad=True))
    out.append(case("clamp", tr(x((5, 3))), -1.0, 1.0, id="grad transposed", grad=True))
    out.append(case("clamp", x(), uniform((4,), -2.2, -0.1), uniform((3, 1), 0.1, 2), id="grad tensor bounds broadcast",
                    grad=True))
    out.append(case("clamp", x(), uniform((3, 4), -2, 0), uniform((3, 4), 0, 2), id="grad tensor bounds", grad=True))
    out.append(case("Tensor.clamp_", nonleaf(x()), -1.0, 1.0, id="grad in-place on a non-leaf", grad=True))
    out.append(case("clamp", x(), 1.0, -1.0, id="grad min above max", grad=True))
    # large
    out.append(case("clamp", big_in((1 << 20,), -2, 2, 170), -1.0, 1.0, id="1M"))
    out.append(case("clamp", big_in((1024, 1024), -2, 2, 171), -0.5, 0.5, id="1M grad", grad=True))
    out.append(case("clamp", big_in((1024, 1024), -2, 2, 172), min=Big1024(), id="1M tensor min broadcast"))
    return out


def Big1024():  # noqa: N802
    return big_in((1024,), -1, 0, 173)


# ---------------------------------------------------------------- activations (torch.nn.functional)

def activation(name, lo, hi, *, inplace=True, variants=(), boundary=None, torch_name=None, big_range=None,
               special=SPECIAL):
    fn = f"nn.functional.{name}"
    out = unary_battery(fn, lo, hi, inplace="kw" if inplace else None, big_range=big_range,
                        seed=300 + len(name), special=special)
    for i, kw in enumerate(variants):
        out.append(case(fn, uniform((3, 5), lo, hi), id=f"{kw}", **kw))
        out.append(case(fn, uniform((2, 3, 4), lo, hi), id=f"{kw} grad", grad=True, **kw))
        out.append(case(fn, special.copy(), id=f"{kw} special values", **kw))
        out.append(case(fn, big_in((1 << 20,), lo, hi, 400 + i), id=f"{kw} 1M", **kw))
        if inplace:
            out.append(case(fn, nonleaf(uniform((3, 4), lo, hi)), id=f"{kw} in-place grad", grad=True, **kw,
                            inplace=True))
    if boundary is not None:
        out.append(case(fn, np.asarray(boundary, np.float32), id="kinks and boundaries (grad)", grad=True))
    if torch_name:
        out.append(case(torch_name, uniform((3, 4), lo, hi), id=f"torch.{torch_name}"))
    return out


golden("relu6")(lambda: activation("relu6", -3, 9, boundary=[-1.0, 0.0, -0.0, 3.0, 6.0, 7.0]))
golden("leaky_relu")(lambda: activation(
    "leaky_relu", -3, 3, variants=({"negative_slope": 0.2}, {"negative_slope": 1.5}, {"negative_slope": 0.0}),
    boundary=[-1.0, 0.0, -0.0, 1.0]))
golden("elu")(lambda: activation("elu", -4, 3, variants=({"alpha": 0.5}, {"alpha": 2.0}),
                                 boundary=[-1.0, 0.0, -0.0, 1.0], big_range=(-20, 5)))
golden("selu")(lambda: activation("selu", -4, 3, boundary=[-1.0, 0.0, -0.0, 1.0], torch_name="selu"))
# Where gelu is exactly zero (x = -0, x below -5.5) PyTorch's sign of that zero depends on its code path
# (scalar or vectorized), so such inputs are left out.
GELU_SPECIAL = np.array([0.0, np.inf, -np.inf, np.nan, 1e38, 65504.0, 2e-38, -1e-30, 1.0, -2.5, 0.5, -5.0],
                        dtype=np.float32)
golden("gelu")(lambda: activation("gelu", -5, 5, inplace=False, special=GELU_SPECIAL,
                                  variants=({"approximate": "none"}, {"approximate": "tanh"})))
golden("silu")(lambda: activation("silu", -6, 6, big_range=(-30, 30)))
golden("mish")(lambda: activation("mish", -6, 6, big_range=(-30, 30)))
golden("softplus")(lambda: activation(
    "softplus", -6, 6, inplace=False,
    variants=({"beta": 2.0}, {"beta": 0.5, "threshold": 5.0}, {"threshold": 1.0}, {"beta": 2, "threshold": 3}),
    big_range=(-30, 30)))
golden("hardtanh")(lambda: activation("hardtanh", -3, 3, variants=({"min_val": -2.0, "max_val": 0.5},),
                                      boundary=[-2.0, -1.0, 0.0, 1.0, 2.0]))
golden("hardswish")(lambda: activation("hardswish", -5, 5, boundary=[-4.0, -3.0, 0.0, 3.0, 4.0]))
golden("hardsigmoid")(lambda: activation("hardsigmoid", -5, 5, boundary=[-4.0, -3.0, 0.0, 3.0, 4.0]))
