"""Golden cases: binary and ternary elementwise ops (imported by cases.py)."""
from __future__ import annotations

import itertools

import numpy as np

from cases import (BROADCAST_SHAPES, SPECIAL, Big, V, big_in, bools, case, distinct, golden, ints, nonleaf, nonzero,
                   rand, strided, tr, uniform)

OPS = {"add": ("__add__", "__radd__", "__iadd__"), "sub": ("__sub__", "__rsub__", "__isub__"),
       "mul": ("__mul__", "__rmul__", "__imul__"), "div": ("__truediv__", "__rtruediv__", "__itruediv__"),
       "remainder": ("__mod__", "__rmod__", "__imod__"), "pow": ("__pow__", "__rpow__", "__ipow__")}


# For remainder/fmod: PyTorch computes a huge/tiny quotient on the way (1e38 mod 2e-38 gives NaN), which is
# its algorithm's artifact, not a defined result, so those two get awkward values of moderate magnitude.
MODERATE = np.array([-0.0, 0.0, np.inf, -np.inf, np.nan, 1.0, -2.5, 0.5, 3.0, -7.0, 0.25, 1e6], dtype=np.float32)


def _special_pairs(vals=SPECIAL):
    a, b = np.meshgrid(vals, vals, indexing="ij")
    return a.copy(), b.copy()


def views_and_grads(fn, ga, gb, *, grad=True, inplace=None, iop=None, op=None, scalar=2.5, seed=500,
                    big_lo=(-1, 1), big_hi=(-1, 1), big_int=True, kw=None, gb_grad=None):
    """Non-contiguous operands, in-place forms, errors, gradients and large cases for a binary op.

    ga/gb: shape -> float32 array for the left/right operand; gb_grad: the right operand in gradient cases
    when PyTorch cannot differentiate with respect to it (an int64 generator; then no big float one)."""
    kw = dict(kw or {})
    gg = gb_grad or gb
    out = []
    # non-contiguous views
    out.append(case(fn, tr(ga((5, 3))), tr(gb((5, 3))), id="both transposed", **kw))
    out.append(case(fn, tr(ga((4, 3))), gb((3, 4)), id="transposed with contiguous", **kw))
    out.append(case(fn, strided(ga((3, 8))), gb((4,)), id="strided with broadcast", **kw))
    out.append(case(fn, V(ga((3, 1)), ("expand", 3, 4)), strided(gb((3, 8))), id="expanded with strided", **kw))
    out.append(case(fn, V(ga((2, 3, 4)), ("permute", 2, 0, 1)), gb((2, 1)), id="permuted with broadcast", **kw))
    out.append(case(fn, ga((0, 3)), gb((3,)), id="empty with broadcast", **kw))
    out.append(case(fn, ga((2, 3)), gb((0, 1, 3)), id="broadcast to empty", **kw))
    # errors
    out.append(case(fn, ga((3,)), gb((4,)), id="error: not broadcastable", **kw))
    out.append(case(fn, ga((2, 3)), gb((3, 2)), id="error: not broadcastable 2-D", **kw))
    # in-place
    if inplace:
        out.append(case(inplace, ga((3, 4)), gb((3, 4)), id="in-place", **kw))
        out.append(case(inplace, ga((3, 4)), gb((4,)), id="in-place broadcast other", **kw))
        out.append(case(inplace, ga((3, 4)), gb(()), id="in-place 0-d other", **kw))
        if scalar is not None:
            out.append(case(inplace, ga((3, 4)), scalar, id="in-place scalar", **kw))
        out.append(case(inplace, tr(ga((5, 3))), gb((3, 5)), id="in-place on a transposed view", **kw))
        out.append(case(inplace, ga((3, 1)), gb((3, 4)), id="error: in-place result would broadcast", **kw))
        out.append(case(inplace, ints((3, 4), 1, 5), gb((3, 4)), id="int64 in-place with float (dtype probe)", **kw))
        out.append(case(inplace, ga((3, 4)), ints((3, 4), 1, 5), id="float in-place with int64", **kw))
        if grad:
            out.append(case(inplace, nonleaf(ga((3, 4))), gg((4,)), id="grad in-place on a non-leaf", grad=True,
                            **kw))
    if iop:
        out.append(case(f"Tensor.{iop}", ga((3, 4)), gb((3, 4)), id=f"{iop} tensor"))
        out.append(case(f"Tensor.{iop}", ga((3, 4)), scalar, id=f"{iop} scalar"))
        if grad:
            out.append(case(f"Tensor.{iop}", nonleaf(ga((3, 4))), gg((3, 1)), id=f"grad {iop}", grad=True))
    # gradients
    if grad:
        out.append(case(fn, ga((3, 4)), gg((3, 4)), id="grad", grad=True, **kw))
        out.append(case(fn, ga((3, 1)), gg((1, 4)), id="grad broadcast both", grad=True, **kw))
        out.append(case(fn, ga((2, 3, 4)), gg((4,)), id="grad broadcast rhs", grad=True, **kw))
        out.append(case(fn, ga((3,)), gg((2, 1, 3)), id="grad broadcast lhs", grad=True, **kw))
        out.append(case(fn, ga(()), gg((2, 3)), id="grad 0-d lhs", grad=True, **kw))
        out.append(case(fn, ga(()), gg(()), id="grad 0-d both", grad=True, **kw))
        out.append(case(fn, tr(ga((5, 3))), strided(gg((3, 10))), id="grad transposed and strided", grad=True, **kw))
        out.append(case(fn, V(ga((3, 1)), ("expand", 3, 4)), gg((3, 4)), id="grad expanded", grad=True, **kw))
        out.append(case(fn, ga((3, 4)), ints((3, 4), 1, 4), id="grad float with int64", grad=True, **kw))
        out.append(case(fn, ga((0, 4)), gg((4,)), id="grad empty", grad=True, **kw))
        if op:
            out.append(case(f"Tensor.{op}", ga((3, 4)), scalar, id=f"grad {op} scalar", grad=True))
            rop = "__r" + op[2:]
            if rop != "__req__" and gb_grad is None:
                out.append(case(f"Tensor.{rop}", gb((3, 4)), scalar, id=f"grad {rop} scalar", grad=True))
    # large
    out.append(case(fn, big_in((1024, 1024), *big_lo, seed), big_in((1024,), *big_hi, seed + 1),
                    id="1M broadcast row", **kw))
    out.append(case(fn, big_in((1 << 20,), *big_lo, seed + 2), big_in((1 << 20,), *big_hi, seed + 3), id="1M",
                    **kw))
    out.append(case(fn, big_in((1024, 1024), *big_lo, seed + 4, ("t",)), big_in((1024, 1), *big_hi, seed + 5),
                    id="1M transposed with column", **kw))
    if big_int:
        # the right operand is odd (2k + 1), never zero
        out.append(case(fn, Big((1 << 20,), "int64", seed=seed + 6), V(Big((1 << 20,), "int64", seed=seed + 7),
                                                                         ("mul", 2), ("add", 1)),
                        id="1M int64 with odd ints", **kw))
    if grad:
        other = big_in((1024, 1), *big_hi, seed + 9) if gb_grad is None else \
            V(Big((1024, 1), "int64", seed=seed + 9), ("mul", 2), ("add", 1))
        out.append(case(fn, big_in((1024, 1024), *big_lo, seed + 8), other, id="1M grad broadcast column", grad=True,
                        **kw))
    return out


def arith_extra(fn):
    """add/sub/mul/div beyond cases.arith_cases: views, in-place, gradients, alpha / rounding modes, large."""
    op, rop, iop = OPS[fn]
    denom = fn == "div"
    gb = (lambda s: nonzero(s)) if denom else (lambda s: rand(s))
    out = views_and_grads(fn, rand, gb, inplace=f"Tensor.{fn}_", iop=iop, op=op, seed=510 + len(fn) * 20,
                          big_hi=(0.5, 2.0) if denom else (-1, 1))
    out.append(case(f"Tensor.{fn}", rand((3, 4)), gb((3, 4)), id="method"))
    out.append(case(f"Tensor.{fn}", rand((3, 4)), 3, id="method int scalar"))
    out.append(case(fn, rand((3, 4)), 2.5, id="torch fn float scalar"))
    out.append(case(fn, ints((3, 4), -9, 9), 2, id="torch fn int64 with int scalar"))
    out.append(case(fn, ints((3, 4), -9, 9, "int32"), 2.5, id="torch fn int32 with float scalar"))
    out.append(case(fn, rand((2, 3)), rand((2, 3)) if not denom else nonzero((2, 3)), id="grad torch fn",
                    grad=True))
    if fn in ("add", "sub"):
        out.append(case(fn, rand((3, 4)), rand((3, 4)), alpha=2, id="alpha int"))
        out.append(case(fn, rand((3, 4)), rand((4,)), alpha=-0.5, id="alpha float broadcast"))
        out.append(case(fn, ints((3, 4)), ints((3, 4)), alpha=3, id="int64 alpha"))
        out.append(case(fn, ints((3, 4)), ints((3, 4)), alpha=0.5, id="error: int64 float alpha"))
        out.append(case(fn, rand((3, 4)), 2.0, alpha=3, id="scalar other alpha"))
        out.append(case(f"Tensor.{fn}_", rand((3, 4)), rand((3, 4)), alpha=2.0, id="in-place alpha"))
        out.append(case(fn, rand((3, 4)), rand((3, 1)), alpha=1.5, id="grad alpha", grad=True))
    if fn == "sub":
        out.append(case("sub", bools((3,)), bools((3,)), id="error: bool minus bool"))
        out.append(case("Tensor.__rsub__", bools((3,)), 1, id="1 minus bool tensor (dtype probe)"))
    if fn == "mul":
        out.append(case("mul", bools((3, 4)), 2.5, id="bool times float scalar"))
        out.append(case("Tensor.mul_", bools((3, 4)), bools((3, 4)), id="bool in-place times bool"))
        out.append(case("mul", ints((1 << 10,), -30000, 30000), ints((1 << 10,), -50000, 50000),
                        id="int64 products that stay in int32"))
    if fn == "div":
        a, b = ints((4, 6), -20, 20), nonzero((4, 6), "int64")
        fa, fb = uniform((4, 6), -9, 9), nonzero((4, 6))
        for mode in ("trunc", "floor"):
            out.append(case("div", fa, fb, rounding_mode=mode, id=f"float rounding_mode={mode}"))
            out.append(case("div", a, b, rounding_mode=mode, id=f"int64 rounding_mode={mode}"))
            out.append(case("div", a.astype("int32"), b.astype("int32"), rounding_mode=mode,
                            id=f"int32 rounding_mode={mode}"))
            out.append(case("div", a, 3, rounding_mode=mode, id=f"int64 by int scalar rounding_mode={mode}"))
            out.append(case("div", a, -2.5, rounding_mode=mode, id=f"int64 by float scalar rounding_mode={mode}"))
            out.append(case("div", fa, ints((6,), 1, 4), rounding_mode=mode, id=f"float by int64 broadcast {mode}"))
            out.append(case("div", ints((3,), 1, 5), np.array([0, 0, 0]), rounding_mode=mode,
                            id=f"error: int64 by zero rounding_mode={mode}"))
            out.append(case("div", np.array([1.0, -1.0, 0.0, 7.0], np.float32), np.array([0.0, 0.0, 0.0, -0.0],
                                                                                          np.float32),
                            rounding_mode=mode, id=f"float by zero rounding_mode={mode}"))
            sa, sb = _special_pairs()
            out.append(case("div", sa, sb, rounding_mode=mode, id=f"special values rounding_mode={mode}"))
            out.append(case("div", np.array([7.0, -7.0, 7.0, -7.0, 6.0, -6.0, 0.5, -0.5], np.float32),
                            np.array([2.0, 2.0, -2.0, -2.0, 3.0, 3.0, 1.0, 1.0], np.float32), rounding_mode=mode,
                            id=f"exact quotients rounding_mode={mode}"))
            out.append(case("Tensor.div_", fa, fb, rounding_mode=mode, id=f"in-place rounding_mode={mode}"))
            out.append(case("Tensor.div_", a, b, rounding_mode=mode, id=f"int64 in-place rounding_mode={mode}"))
            out.append(case("div", fa, fb, rounding_mode=mode, id=f"grad rounding_mode={mode}", grad=True))
            out.append(case("div", big_in((1 << 20,), -100, 100, 590), big_in((1 << 20,), 1, 3, 591),
                            rounding_mode=mode, id=f"1M rounding_mode={mode}"))
        out.append(case("div", a, b, id="int64 true division"))
        out.append(case("Tensor.div_", a, b, id="error: int64 in-place true division"))
        out.append(case("div", fa, fb, rounding_mode=None, id="rounding_mode=None"))
        out.append(case("true_divide", fa, fb, id="true_divide alias"))
        out.append(case("divide", fa, fb, rounding_mode="floor", id="divide alias floor"))
    return out


def binary_battery(fn, ga, gb, *, dtype_pairs, op=None, rop=None, iop=None, inplace=None, scalars=(2, -3, 2.5),
                   scalar_dtypes=("float32", "int64"), grad=True, gi=None, special=True, seed=600, big_lo=(-1, 1),
                   big_hi=(-1, 1), big_int=True, int_gen=None, kw=None, gb_grad=None, special_vals=None):
    """Broadcast shapes, dtypes, Python scalars, operators, in-place, views, special values, grads, large.

    ga/gb: float32 generators; int_gen(shape, dtype, side) for int/bool operands (side 0 or 1)."""
    kw = dict(kw or {})

    def gi_(shape, dt, side):
        if dt == "float32":
            return (ga if side == 0 else gb)(shape)
        if dt == "bool":
            return bools(shape)
        return (int_gen or (lambda s, d, _: ints(s, -9, 9, d)))(shape, dt, side)

    out = []
    for sa, sb in BROADCAST_SHAPES:
        out.append(case(fn, ga(sa), gb(sb), id=f"f32 {sa} {sb}", **kw))
    for da, db in dtype_pairs:
        out.append(case(fn, gi_((3, 4), da, 0), gi_((3, 4), db, 1), id=f"{da} {db}", **kw))
        out.append(case(fn, gi_((2, 1, 4), da, 0), gi_((3, 1), db, 1), id=f"{da} {db} broadcast", **kw))
    out.append(case(f"Tensor.{fn}", ga((3, 4)), gb((3, 4)), id="method", **kw))
    out.append(case(f"Tensor.{fn}", ga((3, 4)), gb((4,)), id="method broadcast", **kw))
    for s in scalars:
        out.append(case(fn, ga((2, 3)), s, id=f"torch fn scalar {s!r}", **kw))
        out.append(case(f"Tensor.{fn}", gi_((2, 3), "int64", 0), s, id=f"method int64 scalar {s!r}", **kw))
    if op:
        for dt, s in itertools.product(scalar_dtypes, scalars):
            out.append(case(f"Tensor.{op}", gi_((2, 3), dt, 0), s, id=f"{dt} {op} {s!r}"))
            if rop:
                out.append(case(f"Tensor.{rop}", gi_((2, 3), dt, 1), s, id=f"{dt} {rop} {s!r}"))
        out.append(case(f"Tensor.{op}", ga((2, 3)), gb((2, 3)), id=f"{op} tensors"))
    out.append(case(fn, ga(()), gi_((2, 2), "int64", 1), id="0-d float with int64 tensor", **kw))
    out.append(case(fn, gi_((), "int64", 0), gi_((2, 2), "int32", 1), id="0-d int64 with int32 tensor", **kw))
    out.append(case(fn, gi_((2, 2), "int32", 0), gb(()), id="int32 tensor with 0-d float", **kw))
    if special:
        sv = SPECIAL if special_vals is None else special_vals
        a, b = _special_pairs(sv)
        out.append(case(fn, a, b, id="special values", **kw))
        out.append(case(fn, sv.copy(), gb(()), id="special values with 0-d", **kw))
    out += views_and_grads(fn, ga, gb, grad=grad, inplace=inplace, iop=iop, op=op,
                           scalar=scalars[-1] if scalars else None, seed=seed,
                           big_lo=big_lo, big_hi=big_hi, big_int=big_int, kw=kw, gb_grad=gb_grad)
    return out


FLOAT_INT = [("float32", "float32"), ("int64", "int64"), ("int32", "int32"), ("float32", "int64"),
             ("int32", "int64"), ("int64", "float32"), ("int32", "float32")]
WITH_BOOL = FLOAT_INT + [("bool", "bool"), ("bool", "int64"), ("bool", "float32")]


def _signed(lo, hi):
    def g(shape):
        return np.asarray((uniform(shape, lo, hi) * np.where(bools(shape), 1, -1)), dtype=np.float32)
    return g


def _nonzero_ints(shape):
    v = ints(shape, -4, 4)
    return np.asarray(np.where(v == 0, 3, v), dtype=np.int64)


def _nonzero_int(lo, hi):
    def g(shape, dt, side):
        if side == 0:
            return ints(shape, -20, 20, dt)
        v = ints(shape, lo, hi, dt)
        return np.asarray(np.where(v == 0, hi, v), dtype=dt)
    return g


@golden("remainder")
def _remainder():
    ga, gb = (lambda s: uniform(s, -7, 7)), _signed(0.5, 3)
    out = binary_battery("remainder", ga, gb, dtype_pairs=FLOAT_INT, op="__mod__", rop="__rmod__", iop="__imod__",
                         inplace="Tensor.remainder_", scalars=(3, -2, 2.5, -1.5), int_gen=_nonzero_int(-5, 5),
                         big_hi=(0.5, 3), seed=620, gb_grad=_nonzero_ints, special_vals=MODERATE)
    # PyTorch has no derivative of remainder for the divisor: gradient cases divide by int64 tensors or scalars
    out.append(case("remainder", ints((6,), -9, 9), np.zeros(6, np.int64), id="error: int64 by zero"))
    out.append(case("remainder", uniform((4,), -3, 3), np.array([0.0, -0.0, 0.0, 0.0], np.float32),
                    id="float by zero"))
    out.append(case("remainder", np.array([6.0, -6.0, 6.0, -6.0, 7.5, -7.5, 1.0, -0.0, 0.0], np.float32),
                    np.array([3.0, 3.0, -3.0, -3.0, 2.5, 2.5, 0.25, 2.0, -2.0], np.float32),
                    id="exact multiples (result zero, its sign)"))
    out.append(case("remainder", np.array([5.0, -5.0, 5.0, -5.0], np.float32), np.array([3.0, 3.0, -3.0, -3.0],
                                                                                          np.float32),
                    id="sign follows divisor"))
    out.append(case("remainder", 5, ints((2, 3), 1, 4), id="scalar self (torch.remainder(5, t))"))
    return out


@golden("fmod")
def _fmod():
    ga, gb = (lambda s: uniform(s, -7, 7)), _signed(0.5, 3)
    out = binary_battery("fmod", ga, gb, dtype_pairs=FLOAT_INT, inplace="Tensor.fmod_", scalars=(3, -2, 2.5, -1.5),
                         int_gen=_nonzero_int(-5, 5), big_hi=(0.5, 3), seed=640, special_vals=MODERATE)
    out.append(case("fmod", ints((6,), -9, 9), np.zeros(6, np.int64), id="error: int64 by zero"))
    out.append(case("fmod", uniform((4,), -3, 3), np.array([0.0, -0.0, 0.0, 0.0], np.float32), id="float by zero"))
    out.append(case("fmod", np.array([6.0, -6.0, 6.0, -6.0, 7.5, -7.5, 1.0, -0.0], np.float32),
                    np.array([3.0, 3.0, -3.0, -3.0, 2.5, 2.5, 0.25, 2.0], np.float32),
                    id="exact multiples (result zero, its sign)"))
    out.append(case("fmod", np.array([5.0, -5.0, 5.0, -5.0], np.float32), np.array([3.0, 3.0, -3.0, -3.0],
                                                                                     np.float32),
                    id="sign follows dividend"))
    return out


def _fminmax(fn):
    def gen():
        g = lambda s: distinct(s)  # noqa: E731
        no_neg_zero = np.where(np.signbit(SPECIAL) & (SPECIAL == 0), np.float32(0.75), SPECIAL).astype(np.float32)
        out = binary_battery(fn, g, g, dtype_pairs=FLOAT_INT + [("int64", "bool")], scalars=(), seed=730 + len(fn),
                             special_vals=no_neg_zero)
        nan = np.array([np.nan, 1.0, np.nan, -np.inf, 2.0], np.float32)
        other = np.array([1.0, np.nan, np.nan, np.nan, -np.inf], np.float32)
        out.append(case(fn, nan, other, id="nan ignored unless both are nan"))
        out.append(case(fn, nan, other, id="grad with nan", grad=True))
        out.append(case(fn, np.array([1.0, 2.0, -3.0, 4.0], np.float32), np.array([1.0, 1.0, -3.0, 5.0], np.float32),
                        id="grad ties", grad=True))
        out.append(case(fn, uniform((3, 4)), 0.5, id="error: scalar other"))
        return out
    golden(fn)(gen)


_fminmax("fmax")
_fminmax("fmin")


@golden("floor_divide")
def _floor_divide():
    # PyTorch has no derivative for floor_divide: forward cases only
    ga, gb = (lambda s: uniform(s, -7, 7)), _signed(0.5, 3)
    out = binary_battery("floor_divide", ga, gb, dtype_pairs=FLOAT_INT, op="__floordiv__", rop="__rfloordiv__",
                         iop="__ifloordiv__", inplace="Tensor.floor_divide_", scalars=(3, -2, 2.5, -1.5),
                         int_gen=_nonzero_int(-5, 5), big_hi=(0.5, 3), seed=650, grad=False, special_vals=MODERATE)
    out.append(case("floor_divide", ints((6,), -9, 9), np.zeros(6, np.int64), id="error: int64 by zero"))
    out.append(case("floor_divide", uniform((4,), -3, 3), np.array([0.0, -0.0, 0.0, 0.0], np.float32),
                    id="float by zero"))
    out.append(case("floor_divide", np.array([7.0, -7.0, 7.0, -7.0, 6.0, -6.0, 0.5, -0.5], np.float32),
                    np.array([2.0, 2.0, -2.0, -2.0, 3.0, 3.0, 1.0, 1.0], np.float32), id="exact quotients"))
    out.append(case("floor_divide", np.array([7, -7, 7, -7, 6, -6]), np.array([2, 2, -2, -2, 3, 3]),
                    id="int64 signs"))
    return out


@golden("pow")
def _pow():
    pos = lambda s: uniform(s, 0.2, 3)  # noqa: E731
    ex = lambda s: uniform(s, -2, 2)  # noqa: E731

    def int_gen(shape, dt, side):
        return ints(shape, -5, 5, dt) if side == 0 else ints(shape, 0, 4, dt)
    out = binary_battery("pow", pos, ex, dtype_pairs=FLOAT_INT + [("bool", "bool"), ("int64", "bool")], op="__pow__",
                         rop="__rpow__", iop="__ipow__", inplace="Tensor.pow_", scalars=(-1.5, 2, 3, 0.5),
                         int_gen=int_gen, big_lo=(0.2, 3), big_hi=(-2, 2), seed=660, big_int=False)
    for s in (2, 3, 0, 1, -1, -2, 0.5, -0.5, 2.5, 1.0 / 3, 2.0, 3.0, 4):
        out.append(case("pow", pos((3, 4)), s, id=f"positive base ** {s!r}"))
        out.append(case("pow", uniform((3, 4), -3, 3), s, id=f"signed base ** {s!r}"))
    for s in (0, 1, 2, 3, 2.5, -1):
        out.append(case("pow", ints((3, 4), -5, 5), s, id=f"{'error: ' if s == -1 else ''}int64 ** {s!r}"))
    out.append(case("pow", ints((3, 4), -5, 5, "int32"), 3, id="int32 ** 3"))
    out.append(case("pow", ints((3, 4), -3, 3), ints((3, 4), -2, -1), id="int64 ** negative int64 tensor"))
    out.append(case("pow", bools((3, 4)), 2, id="bool ** 2 (dtype probe)"))
    # negative bases: integral exponents are exact, fractional give NaN
    neg = uniform((3, 4), -3, -0.2)
    out.append(case("pow", neg, np.array([2.0, 3.0, -1.0, 0.0], np.float32), id="negative base integral exponents"))
    out.append(case("pow", neg, np.array([0.5, 1.5, -0.5, 2.5], np.float32), id="negative base fractional exponents"))
    # scalar base
    for b in (2.0, 2, 0.5, -2.0, 10.0, 1.0, 0.0):
        out.append(case("pow", b, uniform((3, 4), -3, 3), id=f"scalar base {b!r} ** float tensor"))
    out.append(case("pow", 2, ints((3, 4), 0, 10), id="int base ** int64 tensor"))
    out.append(case("pow", -2, ints((3, 4), 0, 10), id="negative int base ** int64 tensor"))
    out.append(case("pow", 2.0, ints((3, 4), -3, 10), id="float base ** int64 tensor"))
    out.append(case("Tensor.__rpow__", uniform((3, 4), -3, 3), 2, id="2 ** t via __rpow__"))
    out.append(case("Tensor.__rpow__", ints((3, 4), 0, 6), 3, id="3 ** int64 t via __rpow__"))
    out.append(case("pow", 2.0, uniform((3, 4), -3, 3), id="grad scalar base", grad=True))
    out.append(case("Tensor.__rpow__", uniform((3, 4), -3, 3), 0.5, id="grad __rpow__ 0.5", grad=True))
    out.append(case("pow", uniform((3, 4), -3, 3), 2, id="grad signed base ** 2", grad=True))
    out.append(case("pow", uniform((3, 4), -3, 3), 3.0, id="grad signed base ** 3.0", grad=True))
    out.append(case("pow", pos((3, 4)), 0.5, id="grad sqrt via pow", grad=True))
    out.append(case("pow", pos((3, 4)), -1.5, id="grad ** -1.5", grad=True))
    out.append(case("pow", pos((3, 4)), 0, id="grad ** 0", grad=True))
    out.append(case("pow", pos((3, 4)), ex(()), id="grad 0-d exponent tensor", grad=True))
    out.append(case("pow", np.array([0.0, 0.0, 0.0, 1.0], np.float32), np.array([0.0, 2.0, 0.5, 0.0], np.float32),
                    id="zero base"))
    out.append(case("pow", np.array([0.0, 0.0, -0.0], np.float32), np.array([-1.0, -2.0, -1.0], np.float32),
                    id="zero base negative exponent"))
    out.append(case("pow", big_in((1 << 20,), -3, 3, 690), 2, id="1M ** 2"))
    out.append(case("pow", big_in((1 << 20,), 0.2, 3, 691), 0.5, id="1M ** 0.5"))
    out.append(case("pow", 2.0, big_in((1 << 20,), -10, 10, 692), id="2 ** 1M"))
    out.append(case("pow", Big((1 << 20,), "int64", seed=693), 3,
                    id="1M int64 ** 3"))
    out.append(case("pow", big_in((1024, 1024), -3, 3, 694), 3, id="1M grad ** 3", grad=True))
    return out


@golden("atan2")
def _atan2():
    g = lambda s: uniform(s, -3, 3)  # noqa: E731
    out = binary_battery("atan2", g, g, dtype_pairs=FLOAT_INT + [("bool", "bool")], inplace="Tensor.atan2_",
                         scalars=(), seed=700)
    out.append(case("atan2", g((3, 4)), 2.0, id="error: scalar other"))
    zeros = np.array([0.0, -0.0, 0.0, -0.0, 1.0, -1.0, 0.0, -0.0], np.float32)
    out.append(case("atan2", zeros, np.array([0.0, 0.0, -0.0, -0.0, 0.0, -0.0, 1.0, -1.0], np.float32),
                    id="signed zeros"))
    out.append(case("atan2", np.array([np.inf, np.inf, -np.inf, 1.0, -1.0], np.float32),
                    np.array([np.inf, -np.inf, 1.0, np.inf, -np.inf], np.float32), id="infinities"))
    out.append(case("arctan2", g((3, 4)), g((3, 4)), id="arctan2 alias"))
    return out


def _minmax(fn):
    def gen():
        g = lambda s: distinct(s)  # noqa: E731
        # which of +0 and -0 PyTorch returns for a (+0, -0) pair depends on its code path: no -0 here
        no_neg_zero = np.where(np.signbit(SPECIAL) & (SPECIAL == 0), np.float32(0.75), SPECIAL).astype(np.float32)
        out = binary_battery(fn, g, g, dtype_pairs=WITH_BOOL, scalars=(), seed=720 + len(fn), special_vals=no_neg_zero)
        out.append(case(fn, uniform((3, 4)), 0.5, id="error: scalar other"))
        nan = np.array([np.nan, 1.0, np.nan, -np.inf, 2.0], np.float32)
        out.append(case(fn, nan, np.array([1.0, np.nan, np.nan, np.nan, -np.inf], np.float32), id="nan propagates"))
        t = np.array([1.0, 2.0, -3.0, 4.0], np.float32)
        out.append(case(fn, t, np.array([1.0, 1.0, -3.0, 5.0], np.float32), id="grad ties split evenly", grad=True))
        out.append(case(fn, np.array([[1, 5], [7, -2]]), np.array([[3, 5], [-7, 2]], np.int32), id="int64 int32 ties"))
        alias = {"maximum": "max", "minimum": "min"}[fn]
        out.append(case(alias, g((3, 4)), g((3, 4)), id=f"torch.{alias}(a, b)"))
        out.append(case(alias, g((3, 4)), g((4,)), id=f"grad torch.{alias}(a, b) broadcast", grad=True))
        return out
    golden(fn)(gen)


_minmax("maximum")
_minmax("minimum")


def _small_float(shape):
    """Floats on a grid of halves, so that equal values occur."""
    return np.asarray((ints(shape, -4, 4) / 2.0), dtype=np.float32)


def _cmp(fn, op, rop):
    def gen():
        out = binary_battery(fn, _small_float, _small_float, dtype_pairs=WITH_BOOL + [("int64", "bool")],
                             op=op, rop=rop, inplace=f"Tensor.{fn}_", scalars=(1, 0.5, -1.5, True),
                             scalar_dtypes=("float32", "int64", "bool"), grad=False, seed=740 + len(op),
                             int_gen=lambda s, d, _: ints(s, -3, 3, d))
        out.append(case(fn, np.array([0.0, -0.0, np.nan, np.nan, np.inf, -np.inf, 1e38], np.float32),
                        np.array([-0.0, 0.0, np.nan, 1.0, np.inf, np.inf, np.inf], np.float32),
                        id="zeros, nan, inf"))
        out.append(case(fn, np.array([16777217, 16777216, -5, 2 ** 30]), np.array([16777216.0, 16777216.0, -5.0,
                                                                                     2.0 ** 30], np.float32),
                        id="int64 vs float32 near 2**24"))
        out.append(case(fn, np.array([3, -2, 7], np.int64), 2.5, id="int64 with float scalar"))
        out.append(case(fn, _small_float((3, 4)), np.array(0.5, np.float32), id="0-d rhs"))
        out.append(case(f"Tensor.{fn}_", ints((3, 4), -3, 3), 1, id="in-place int64 keeps dtype"))
        return out
    golden(fn)(gen)


for _fn, _op, _rop in (("eq", "__eq__", None), ("ne", "__ne__", None), ("lt", "__lt__", "__gt__"),
                       ("le", "__le__", "__ge__"), ("gt", "__gt__", "__lt__"), ("ge", "__ge__", "__le__")):
    _cmp(_fn, _op, _rop)


def _with_zeros(shape):
    a = uniform(shape, -2, 2)
    return np.asarray(np.where(np.abs(a) < 0.8, 0.0, a), dtype=np.float32)


def _logical(fn):
    def gen():
        out = binary_battery(fn, _with_zeros, _with_zeros, dtype_pairs=WITH_BOOL + [("int64", "bool")],
                             inplace=f"Tensor.{fn}_", scalars=(), grad=False, seed=760 + len(fn),
                             int_gen=lambda s, d, _: ints(s, -1, 1, d))
        out.append(case(fn, np.array([np.nan, 0.0, -0.0, np.inf, 2e-38], np.float32),
                        np.array([1.0, np.nan, 1.0, -0.0, 1.0], np.float32), id="nan is true, -0 is false"))
        out.append(case(f"Tensor.{fn}_", bools((3, 4)), bools((3, 4)), id="in-place bool"))
        out.append(case(fn, bools((3, 4)), True, id="error: scalar other"))
        out.append(case(fn, Big((1 << 20,), "bool", seed=768), Big((1 << 20,), "bool", seed=769), id="1M bool"))
        return out
    golden(fn)(gen)


for _fn in ("logical_and", "logical_or", "logical_xor"):
    _logical(_fn)


@golden("where")
def _where():
    out = []
    c = lambda s: bools(s)  # noqa: E731
    for sc, sa, sb in [((5,), (5,), (5,)), ((3, 4), (3, 4), (3, 4)), ((3, 1), (1, 4), ()), ((4,), (3, 4), (3, 1)),
                       ((2, 3, 4), (4,), (3, 4)), ((), (2, 3), (2, 3)), ((), (), ()), ((0, 3), (3,), ()),
                       ((2, 1, 3), (4, 1), (1,)), ((300,), (300,), (300,))]:
        out.append(case("where", c(sc), uniform(sa), uniform(sb), id=f"{sc} {sa} {sb}"))
    for da, db in [("int64", "int64"), ("int32", "int32"), ("float32", "int64"), ("int64", "int32"),
                   ("bool", "bool"), ("bool", "float32"), ("int32", "float32")]:
        a = uniform((3, 4)) if da == "float32" else (bools((3, 4)) if da == "bool" else ints((3, 4), dtype=da))
        b = uniform((3, 4)) if db == "float32" else (bools((3, 4)) if db == "bool" else ints((3, 4), dtype=db))
        out.append(case("where", c((3, 4)), a, b, id=f"{da} {db}"))
    out.append(case("where", c((3, 4)), uniform((3, 4)), 0.0, id="scalar other"))
    out.append(case("where", c((3, 4)), -1.5, uniform((3, 4)), id="scalar input"))
    out.append(case("where", c((3, 4)), 1.0, 0.0, id="two float scalars"))
    out.append(case("where", c((3, 4)), 1, 0, id="two int scalars"))
    out.append(case("where", c((3, 4)), ints((3, 4)), 0.5, id="int64 tensor with float scalar"))
    out.append(case("where", c((3, 4)), ints((3, 4), dtype="int32"), 7, id="int32 tensor with int scalar"))
    out.append(case("where", c((3, 4)), uniform((3, 4)), float("-inf"), id="-inf fill (masking)"))
    out.append(case("Tensor.where", uniform((3, 4)), c((3, 4)), uniform((3, 4)), id="method x.where(cond, y)"))
    out.append(case("Tensor.where", uniform((3, 4)), c((3, 1)), 0.0, id="method scalar other"))
    out.append(case("where", c((3, 4)), id="one argument (nonzero as tuple)"))
    out.append(case("where", ints((2, 3), -1, 1), id="one argument int64"))
    out.append(case("where", uniform((3, 4)), uniform((3, 4)), uniform((3, 4)), id="error: float condition"))
    out.append(case("where", ints((3, 4), 0, 1), uniform((3, 4)), uniform((3, 4)), id="error: int64 condition"))
    out.append(case("where", c((3,)), uniform((4,)), uniform((4,)), id="error: not broadcastable"))
    out.append(case("where", c((12,)), SPECIAL.copy(), SPECIAL[::-1].copy(), id="special values"))
    out.append(case("where", np.zeros(12, bool), np.full(12, np.nan, np.float32), uniform((12,)),
                    id="unselected nan is not propagated"))
    out.append(case("where", c((6, 4)), tr(uniform((4, 6))), strided(uniform((6, 8))), id="transposed and strided"))
    out.append(case("where", V(c((4, 6)), ("t",)), uniform((6, 4)), uniform((6, 4)), id="transposed condition"))
    out.append(case("where", V(c((3, 1)), ("expand", 3, 4)), uniform((3, 4)), uniform((1, 4)),
                    id="expanded condition"))
    # gradients
    out.append(case("where", c((3, 4)), uniform((3, 4)), uniform((3, 4)), id="grad", grad=True))
    out.append(case("where", c((3, 1)), uniform((1, 4)), uniform(()), id="grad broadcast", grad=True))
    out.append(case("where", c((2, 3, 4)), uniform((4,)), uniform((3, 1)), id="grad broadcast 3-D", grad=True))
    out.append(case("where", c((3, 4)), uniform((3, 4)), 0.0, id="grad scalar other", grad=True))
    out.append(case("where", c((6, 4)), tr(uniform((4, 6))), strided(uniform((6, 8))), id="grad views", grad=True))
    out.append(case("where", np.zeros(4, bool), np.array([np.nan, np.inf, 1.0, 2.0], np.float32), uniform((4,)),
                    id="grad unselected nan", grad=True))
    out.append(case("Tensor.where", uniform((3, 4)), c((3, 4)), uniform((4,)), id="grad method", grad=True))
    # large
    out.append(case("where", Big((1024, 1024), "bool", seed=780), big_in((1024, 1024), -1, 1, 781),
                    big_in((1024,), -1, 1, 782), id="1M"))
    out.append(case("where", Big((1 << 20,), "bool", seed=783), Big((1 << 20,), "int64", seed=784), 0,
                    id="1M int64 with scalar"))
    out.append(case("where", Big((1024, 1), "bool", seed=785), big_in((1024, 1024), -1, 1, 786),
                    big_in((1024, 1024), -1, 1, 787, ("t",)), id="1M grad", grad=True))
    return out


@golden("lerp")
def _lerp():
    out = []
    u = lambda s: uniform(s, -3, 3)  # noqa: E731
    for w in (0.0, 0.25, 0.5, 1.0, 1.5, -0.5, 0.75):
        out.append(case("lerp", u((3, 4)), u((3, 4)), w, id=f"scalar weight {w!r}"))
    out.append(case("lerp", u((3, 4)), u((3, 4)), 1, id="int scalar weight (dtype probe)"))
    for sa, sb, sw in [((3, 4), (3, 4), (3, 4)), ((3, 1), (1, 4), ()), ((4,), (3, 4), (3, 1)), ((), (), ()),
                       ((2, 3, 4), (4,), (3, 1)), ((0, 3), (3,), (1,)), ((300,), (300,), (300,))]:
        out.append(case("lerp", u(sa), u(sb), uniform(sw, -0.5, 1.5), id=f"tensor weight {sa} {sb} {sw}"))
    out.append(case("lerp", u((3, 4)), u((4,)), 0.3, id="broadcast end scalar weight"))
    out.append(case("Tensor.lerp", u((3, 4)), u((3, 4)), 0.3, id="method"))
    out.append(case("Tensor.lerp", u((3, 4)), u((3, 4)), uniform((3, 4), 0, 1), id="method tensor weight"))
    out.append(case("Tensor.lerp_", u((3, 4)), u((3, 4)), 0.3, id="in-place"))
    out.append(case("Tensor.lerp_", u((3, 4)), u((4,)), uniform((3, 1), 0, 1), id="in-place tensor weight"))
    out.append(case("Tensor.lerp_", u((3, 1)), u((3, 4)), 0.3, id="error: in-place result would broadcast"))
    out.append(case("lerp", ints((3, 4)), ints((3, 4)), 0.5, id="error: int64"))
    out.append(case("lerp", u((3, 4)), ints((3, 4)), 0.5, id="error: float with int64 end"))
    out.append(case("lerp", u((3,)), u((4,)), 0.5, id="error: not broadcastable"))
    out.append(case("lerp", SPECIAL.copy(), np.ones(12, np.float32), 0.5, id="special start"))
    out.append(case("lerp", np.ones(12, np.float32), SPECIAL.copy(), 0.25, id="special end"))
    out.append(case("lerp", np.zeros(12, np.float32), np.ones(12, np.float32), SPECIAL.copy(), id="special weight"))
    out.append(case("lerp", tr(u((5, 3))), strided(u((3, 10))), 0.7, id="transposed and strided"))
    out.append(case("lerp", u((3, 4)), u((3, 4)), 0.3, id="grad", grad=True))
    out.append(case("lerp", u((3, 1)), u((4,)), 0.8, id="grad broadcast", grad=True))
    out.append(case("lerp", u((3, 4)), u((3, 4)), uniform((3, 4), 0, 1), id="grad tensor weight", grad=True))
    out.append(case("lerp", u((3, 1)), u((1, 4)), uniform((4,), 0, 1), id="grad tensor weight broadcast", grad=True))
    out.append(case("lerp", tr(u((5, 3))), u((3, 5)), uniform((), 0, 1), id="grad transposed 0-d weight", grad=True))
    out.append(case("Tensor.lerp_", nonleaf(u((3, 4))), u((3, 4)), uniform((3, 4), 0, 1), id="grad in-place",
                    grad=True))
    out.append(case("lerp", big_in((1 << 20,), -1, 1, 800), big_in((1 << 20,), -1, 1, 801), 0.3, id="1M"))
    out.append(case("lerp", big_in((1024, 1024), -1, 1, 802), big_in((1024,), -1, 1, 803),
                    big_in((1024, 1), 0, 1, 804), id="1M grad tensor weight", grad=True))
    return out
