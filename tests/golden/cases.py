"""Golden case generators, one per registered op (torch-free: inputs are numpy arrays).

``@golden("add")`` registers a function returning a list of cases. A case calls ``fn`` (a name
looked up in ``torch`` / ``borch_webgpu``, or ``Tensor.<method>`` called on the first argument)
with ``args`` (numpy arrays become tensors; Python scalars stay scalars) and ``kwargs``.
tests/unit/test_registry.py fails when a registered op has no generator here.
"""
from __future__ import annotations

import itertools
import zlib

import numpy as np

GENERATORS: dict[str, callable] = {}
# Awkward values. Subnormals (below 1.18e-38) are left out on purpose: WGSL lets GPUs flush them
# to zero, so their results are the hardware's, not PyTorch's; the tiny values here are normal.
SPECIAL = np.array([-0.0, 0.0, np.inf, -np.inf, np.nan, 1e38, -3e38, 2e-38, -1e-30, 1.0, -2.5, 65504.0],
                   dtype=np.float32)


def golden(op: str):
    def deco(fn):
        def gen():
            # the shared generator restarts from a seed of the op's name, so that one op's inputs do not
            # depend on which other ops were generated before it
            _rng.bit_generator.state = np.random.default_rng(zlib.crc32(op.encode())).bit_generator.state
            return fn()
        GENERATORS[op] = gen
        return fn
    return deco


class Big:
    """A large input given by the shared integer-hash formula instead of stored values."""

    def __init__(self, shape, dtype="float32", seed=0):
        self.shape, self.dtype, self.seed = tuple(shape), dtype, seed


class V:
    """An input made from ``base`` (a numpy array or Big) and then viewed: ``V(a, ("t",), ("transpose", 0, 1))``.

    Each step is (method name, *args) called on the tensor; gradients are taken with respect to the base,
    so non-contiguous and transposed inputs are covered forward and backward."""

    def __init__(self, base, *steps):
        self.base, self.steps = base, [list(s) for s in steps]


def case(fn, *args, id=None, grad=False, random=False, **kwargs):  # noqa: A002
    """One call. grad=True also records the gradients of every float input for a fixed upstream gradient;
    random=True records only the output shapes and dtypes (random streams cannot match PyTorch's)."""
    return {"fn": fn, "args": list(args), "kwargs": kwargs, "id": id, "grad": grad, "random": random}


_rng = np.random.default_rng(20261130)


def rand(shape, dtype="float32", low=-3.0, high=3.0):
    if dtype == "float32":
        return _rng.uniform(low, high, size=shape).astype(np.float32)
    if dtype in ("int64", "int32"):
        return _rng.integers(int(low) * 3, int(high) * 3 + 1, size=shape).astype(dtype)
    if dtype == "bool":
        return _rng.integers(0, 2, size=shape).astype(np.bool_)
    raise ValueError(dtype)


def nonzero(shape, dtype="float32"):
    a = rand(shape, dtype)
    if dtype == "float32":
        return np.asarray(np.where(np.abs(a) < 0.25, np.float32(0.5), a), dtype=np.float32)
    return np.asarray(np.where(a == 0, 1, a), dtype=dtype)


def uniform(shape, low=-3.0, high=3.0):
    """Float32 values uniform in [low, high)."""
    return _rng.uniform(low, high, size=shape).astype(np.float32)


def ints(shape, low=-5, high=5, dtype="int64"):
    """Integers uniform in [low, high] (inclusive)."""
    return _rng.integers(low, high + 1, size=shape).astype(dtype)


def bools(shape, p=0.5):
    return np.asarray(_rng.uniform(0, 1, size=shape) < p, dtype=np.bool_)


def distinct(shape, low=-3.0, high=3.0, dtype="float32"):
    """Values with no ties (max/min/sort/topk indices are then unambiguous), shuffled."""
    n = int(np.prod(shape, dtype=np.int64))
    perm = _rng.permutation(n)
    if dtype == "float32":
        # one value per bin of width (high-low)/n, kept away from the bin edges
        v = low + (high - low) * (perm + _rng.uniform(0.15, 0.85, size=n)) / max(n, 1)
        return v.astype(np.float32).reshape(shape)
    return (perm - n // 2).astype(dtype).reshape(shape)


def big_in(shape, low, high, seed, *steps):
    """A Big float input mapped from [-1, 1) into [low, high) (then viewed by ``steps``)."""
    return V(Big(shape, seed=seed), ("mul", float((high - low) / 2)), ("add", float((high + low) / 2)), *steps)


def tr(a, *steps):
    """A transposed (non-contiguous) view of ``a`` (dims 0 and -1 swapped): pass the base with its dims swapped."""
    return V(a, ("transpose", 0, -1), *steps)


def strided(a, *steps):
    """Every second element along the last dim of ``a`` (non-contiguous, offset 1)."""
    return V(a, ("__getitem__", (Ellipsis, slice(1, None, 2))), *steps)


def nonleaf(a, *steps):
    """``a * 1.0``: a non-leaf tensor, so in-place ops on it can be differentiated (gradient w.r.t. ``a``)."""
    return V(a, ("mul", 1.0), *steps)


BROADCAST_SHAPES = [((5,), (5,)), ((2, 3), (2, 3)), ((3, 1), (1, 4)), ((2, 3, 4), (4,)), ((4,), (2, 3, 4)),
                    ((), (2, 3)), ((2, 3), ()), ((), ()), ((2, 0), (2, 1)), ((0,), ()), ((5, 1, 3), (1, 4, 1)),
                    ((1, 1, 7), (6, 1)), ((2, 1, 3, 1, 2), (4, 1, 2)), ((300,), (300,))]
DTYPE_PAIRS = [("float32", "float32"), ("int64", "int64"), ("int32", "int32"), ("float32", "int64"),
               ("int32", "int64"), ("bool", "bool"), ("bool", "float32"), ("int64", "bool")]


def arith_cases(fn: str, denom: bool = False) -> list[dict]:
    out = []
    make_b = nonzero if denom else rand
    for (sa, sb) in BROADCAST_SHAPES:
        out.append(case(fn, rand(sa), make_b(sb), id=f"f32 {sa} {sb}"))
    for da, db in DTYPE_PAIRS:
        if fn == "sub" and da == db == "bool":
            continue
        out.append(case(fn, rand((3, 4), da), make_b((3, 4), db), id=f"{da} {db}"))
        out.append(case(fn, rand((2, 1, 4), da), make_b((3, 1), db), id=f"{da} {db} broadcast"))
    # Python scalars on either side, through the operators
    op = {"add": "__add__", "sub": "__sub__", "mul": "__mul__", "div": "__truediv__"}[fn]
    rop = "__r" + op[2:]
    for dt, s in itertools.product(("float32", "int64", "bool"), (2, -3, 2.5, True)):
        if fn == "sub" and dt == "bool" and isinstance(s, bool):
            continue
        out.append(case(f"Tensor.{op}", make_b((2, 3), dt), s, id=f"{dt} {op} {s!r}"))
        out.append(case(f"Tensor.{rop}", make_b((2, 3), dt), s, id=f"{s!r} {op} {dt}"))
    out.append(case(fn, rand((), "float32"), rand((2, 2), "int64"), id="0-d float with int tensor"))
    out.append(case(fn, rand((), "int64"), rand((2, 2), "int32"), id="0-d int64 with int32 tensor"))
    # awkward values, all pairs
    a, b = np.meshgrid(SPECIAL, SPECIAL, indexing="ij")
    out.append(case(fn, a.copy(), b.copy(), id="special values"))
    out.append(case(fn, Big((1024, 1024), seed=1), Big((1024,), seed=2), id="1M broadcast"))
    out.append(case(fn, Big((1 << 20,), "int64", seed=3), Big((1 << 20,), "int64", seed=4), id="1M int64"))
    return out


for _name in ("add", "sub", "mul"):
    # more of each (gradients, views, in-place, alpha, errors) in cases_binary.arith_extra
    golden(_name)(lambda _n=_name: arith_cases(_n) + cases_binary.arith_extra(_n))


@golden("div")
def _div():
    out = arith_cases("div", denom=True) + cases_binary.arith_extra("div")
    out.append(case("div", rand((4, 4), "int64"), rand((4, 4), "int64"), id="int by int with zeros"))
    out.append(case("div", np.array([1.0, -1.0, 0.0], np.float32), np.array([0.0, 0.0, 0.0], np.float32),
                    id="by zero"))
    return out


@golden("sum")
def _sum():
    out = []
    for shape, dim, keep in [((5,), None, False), ((3, 4), None, False), ((3, 4), 0, False), ((3, 4), 1, True),
                             ((3, 4), -1, False), ((2, 3, 4), (0, 2), False), ((2, 3, 4), (0, 2), True),
                             ((2, 3, 4), (-1, 0), False), ((), None, False), ((), 0, True), ((0,), None, False),
                             ((3, 0), 1, False), ((3, 0), 0, False), ((7, 300), 1, False), ((300, 7), 0, False),
                             ((2, 5000), 1, False), ((5000, 3), 0, True)]:
        kw = {} if dim is None else {"dim": dim, "keepdim": keep}
        out.append(case("sum", rand(shape), id=f"{shape} dim={dim} keepdim={keep}", **kw))
    for dt in ("int64", "int32", "bool"):
        out.append(case("sum", rand((4, 5), dt), id=f"{dt} all"))
        out.append(case("sum", rand((4, 5), dt), dim=1, id=f"{dt} dim 1"))
    out.append(case("sum", rand((3, 4)), dim=1, dtype="float32", id="dtype kwarg"))
    out.append(case("sum", SPECIAL[None, :].repeat(2, 0), dim=1, id="special values"))
    out.append(case("sum", Big((1 << 20,), seed=5), id="1M all"))
    out.append(case("sum", Big((1024, 1024), seed=6), dim=0, id="1024x1024 dim 0"))
    out.append(case("sum", Big((1024, 1024), seed=7), dim=1, id="1024x1024 dim 1"))
    out.append(case("sum", Big((4, 1 << 18), seed=8), dim=1, id="4 rows of 256K"))
    out.append(case("Tensor.sum", rand((2, 3)), id="method"))
    return out + cases_reduce.sum_extra()  # gradients, views, errors


@golden("fill")
def _fill():
    out = []
    for fn, args in [("zeros", (2, 3)), ("ones", (4,)), ("zeros", (0, 3)), ("ones", ((),))]:
        out.append(case(fn, *args, id=f"{fn}{args}"))
    for dt in ("float32", "int64", "int32", "bool"):
        out.append(case("ones", 2, 3, dtype=dt, id=f"ones {dt}"))
        out.append(case("zeros", 3, dtype=dt, id=f"zeros {dt}"))
    for v in (1.5, -2, True, float("inf"), float("nan"), -0.0):
        out.append(case("full", (2, 2), v, id=f"full {v!r}"))
    out.append(case("full", (3,), 7, dtype="float32", id="full int value as float32"))
    out.append(case("full", (3,), 2.7, dtype="int64", id="full float value as int64"))
    out.append(case("ones", 1024, 1024, id="1M ones"))
    out.append(case("full", (1024, 1024), -2.5, id="1M full"))
    out.append(case("zeros", (2, 3), id="size tuple"))
    out.append(case("full", (2, 3), 4, id="full int value"))
    out.append(case("full", (2, 3), True, id="full bool value"))
    out.append(case("zeros", -1, id="error: negative size"))
    out.append(case("zeros", size=(2, 3), id="size keyword"))
    out.append(case("ones", size=[1, 2], dtype="int64", id="size keyword list"))
    out.append(case("empty", size=(2, 3), random=True, id="empty size keyword"))
    out.append(case("zeros", 2, size=(2,), id="error: size given twice"))
    out.append(case("Tensor.fill_", rand((2, 3)), 1.5, id="fill_ float"))
    out.append(case("Tensor.fill_", rand((2, 3), "int64"), 2.7, id="fill_ int64 with float value"))
    out.append(case("Tensor.fill_", rand((2, 3)), np.array(3.0, np.float32), id="fill_ 0-d tensor value"))
    out.append(case("Tensor.fill_", V(rand((3, 2)), ("t",)), -1.0, id="fill_ transposed view"))
    out.append(case("Tensor.zero_", rand((2, 3)), id="zero_"))
    out.append(case("zeros_like", rand((2, 3), "int64"), id="zeros_like int64"))
    out.append(case("ones_like", rand((2, 3)), id="ones_like"))
    out.append(case("full_like", rand((2, 3)), 7.0, id="full_like"))
    out.append(case("ones_like", rand((2, 3)), dtype="bool", id="ones_like dtype"))
    return out


@golden("_to_copy")
def _to_copy():
    out = []
    for src in ("float32", "int64", "int32", "bool"):
        for dst in ("float32", "int64", "int32", "bool"):
            vals = rand((3, 5), src)
            out.append(case("Tensor.to", vals, dst, id=f"{src} to {dst}"))
    out.append(case("Tensor.to", SPECIAL[:5].copy(), "bool", id="special to bool"))
    out.append(case("Tensor.to", np.array([1.7, -1.7, 2.5, -0.5], np.float32), "int64", id="float to int truncates"))
    out.append(case("Tensor.float", rand((2, 2), "int64"), id="float()"))
    out.append(case("Tensor.long", rand((2, 2)), id="long()"))
    out.append(case("Tensor.int", rand((2, 2)), id="int()"))
    out.append(case("Tensor.bool", rand((2, 2)), id="bool()"))
    out.append(case("Tensor.to", np.array([2.0 ** 31 - 256, -2.0 ** 31, 1e9, -7.99], np.float32), "int32",
                    id="float to int32 near the limits"))
    out.append(case("Tensor.to", np.array([0, 1, -1, 2], np.int64), "bool", id="int64 values to bool"))
    out.append(case("Tensor.to", V(rand((4, 3)), ("t",)), "int64", id="transposed float to int64"))
    out.append(case("Tensor.to", V(rand((4, 3), "int64"), ("t",)), "float32", id="transposed int64 to float"))
    out.append(case("Tensor.to", rand((3, 5)), "float32", copy=True, id="same dtype copy=True"))
    out.append(case("Tensor.to", rand((3, 5)), "float32", id="same dtype"))
    out.append(case("Tensor.to", V(rand((4, 3)), ("t",)), "float32", copy=True, id="grad copy of a view", grad=True))
    out.append(case("Tensor.float", V(rand((4, 3)), ("t",)), id="grad float() of a float view", grad=True))
    out.append(case("Tensor.to", rand((3, 5)), "float32", copy=True, id="grad copy", grad=True))
    out.append(case("Tensor.to", Big((1 << 20,), seed=30), "int64", id="1M float to int64"))
    out.append(case("Tensor.to", Big((1 << 20,), "int64", seed=31), "float32", id="1M int64 to float"))
    out.append(case("Tensor.to", Big((1 << 20,), "bool", seed=32), "float32", id="1M bool to float"))
    return out


# print(tensor) in PyTorch's format: expressions evaluated with `torch` bound to each library
REPR_EXPRS = [
    "torch.tensor([[1., 2.], [3., 4.]])",
    "torch.ones(2, 3) * 2",
    "torch.tensor(3.5)",
    "torch.tensor(7)",
    "torch.tensor([True, False, True])",
    "torch.tensor([1, 2, 300], dtype=torch.int32)",
    "torch.tensor([1, -2, 300])",
    "torch.tensor([1e-5, 1.])",
    "torch.tensor([1e10, 1.])",
    "torch.tensor([123456789.0, 1.5])",
    "torch.tensor([0.1, -0.25, 3.0])",
    "torch.tensor([float('nan'), float('inf'), -float('inf'), 1.5])",
    "torch.tensor([float('nan'), 2.0])",
    "torch.tensor([-0.0, 0.0])",
    "torch.zeros(0)",
    "torch.zeros(2, 0)",
    "torch.zeros(0, dtype=torch.int64)",
    "torch.arange(2000)",
    "torch.arange(1200.) / 7",
    "torch.ones(40, 40) / 3",
    "torch.arange(30.) * 1000.5",
    "torch.ones(3, 1, 2) / torch.tensor([1., 3.])",
    "torch.tensor([[1.123456, 2000.5], [-3.25, 0.0001]])",
    "torch.full((2, 2), 5)",
    "torch.ones(2, requires_grad=True)",
    "torch.Size([2, 3])",
    "torch.tensor([1, 2]).shape",
    "torch.float32",
    "torch.tensor([1, 2]).dtype",
    "torch.device('cpu')",
]


# The other op families register themselves into GENERATORS on import (they import the helpers above).
import cases_binary  # noqa: E402
import cases_compare  # noqa: E402,F401
import cases_creation  # noqa: E402,F401
import cases_linalg  # noqa: E402,F401
import cases_math  # noqa: E402,F401
import cases_nn  # noqa: E402,F401
import cases_nn_more  # noqa: E402,F401
import cases_nn_act  # noqa: E402,F401
import cases_reduce  # noqa: E402
import cases_shape  # noqa: E402,F401
import cases_shapes_more  # noqa: E402,F401
import cases_tensorfns  # noqa: E402,F401
import cases_tensorfns_index  # noqa: E402,F401
import cases_tensorfns_reduce  # noqa: E402,F401
import cases_unary  # noqa: E402,F401
