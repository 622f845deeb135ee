"""Golden cases: creation ops; random ones record shapes and dtypes only (imported by cases.py)."""
from __future__ import annotations

from cases import case, golden


@golden("arange")
def _arange():
    out = []
    for args, kw in [((5,), {}), ((0,), {}), ((1, 10), {}), ((1, 10, 2), {}), ((10, 0, -3), {}), ((-3, 3, 0.5), {}),
                     ((0, 1, 0.1), {}), ((5.0,), {}), ((2.5,), {}), ((-5, -1), {}), ((0, 1, 0.3), {}),
                     ((1, 2, 0.25), {}), ((0.5, 3), {}), ((3, 3), {}), ((0, -1, -0.125), {}), ((1, 10, 3), {}),
                     ((5,), {"dtype": "float32"}), ((5,), {"dtype": "int32"}), ((0, 2, 0.5), {"dtype": "float32"}),
                     ((1.5, 5), {"dtype": "int64"}), ((10,), {"dtype": "int64"}), ((0, 10, 3), {"dtype": "float32"}),
                     ((1, 4), {"dtype": "bool"}), ((-1000, 1000, 7), {}), ((100000,), {"dtype": "int32"})]:
        out.append(case("arange", *args, id=f"{args} {kw}", **kw))
    out.append(case("arange", start=2, end=8, step=2, id="kwargs"))
    out.append(case("arange", end=4, id="end kwarg"))
    out.append(case("arange", 0, 5, 0, id="error: zero step"))
    out.append(case("arange", 5, 0, 1, id="error: step has the wrong sign"))
    out.append(case("arange", 0, 5, -1, id="error: negative step upward"))
    out.append(case("arange", float("inf"), id="error: infinite end"))
    out.append(case("arange", float("nan"), id="error: nan end"))
    out.append(case("arange", 1 << 20, id="1M int64"))
    out.append(case("arange", 0.0, 1.0, 1.0 / (1 << 20), id="1M float steps"))
    out.append(case("arange", -512, 512, 1.0 / 1024, id="1M float from negative"))
    return out


@golden("linspace")
def _linspace():
    out = []
    for args, kw in [((0, 1, 5), {}), ((-1, 1, 1), {}), ((2, 2, 4), {}), ((0, 1, 0), {}), ((1, 0, 5), {}),
                     ((-3.5, 7.25, 12), {}), ((0, 10, 6), {"dtype": "int64"}), ((0, 10, 4), {"dtype": "int64"}),
                     ((0, 10, 5), {"dtype": "int32"}), ((10, 0, 11), {"dtype": "int64"}), ((0, 1, 2), {}),
                     ((1e-3, 1e3, 7), {}), ((0, 1, 100), {}), ((-1, 1, 3), {"dtype": "float32"}), ((0, 1, 1000), {})]:
        out.append(case("linspace", *args, id=f"{args} {kw}", **kw))
    out.append(case("linspace", start=0, end=2, steps=9, id="kwargs"))
    out.append(case("linspace", 0, 1, -1, id="error: negative steps"))
    out.append(case("linspace", 0, 1, id="error: steps missing"))
    out.append(case("linspace", 0, float("inf"), 3, id="infinite end (probe)"))
    out.append(case("linspace", 0, 1, 1 << 20, id="1M"))
    out.append(case("linspace", -1, 1, 1000001, id="1M odd steps"))
    out.append(case("linspace", 0, 1 << 20, (1 << 20) + 1, dtype="int64", id="1M int64"))
    return out


@golden("eye")
def _eye():
    out = []
    for args, kw in [((3,), {}), ((1,), {}), ((0,), {}), ((2, 4), {}), ((4, 2), {}), ((3, 0), {}), ((0, 3), {}),
                     ((3,), {"dtype": "int64"}), ((2, 3), {"dtype": "int32"}), ((3,), {"dtype": "bool"}),
                     ((3,), {"dtype": "float32"}), ((5, 5), {})]:
        out.append(case("eye", *args, id=f"{args} {kw}", **kw))
    out.append(case("eye", 3, m=5, id="m kwarg"))
    out.append(case("eye", n=2, id="n kwarg"))
    out.append(case("eye", -1, id="error: negative n"))
    out.append(case("eye", 3, -2, id="error: negative m"))
    out.append(case("eye", 1024, id="1024x1024"))
    out.append(case("eye", 1000, 1100, id="1000x1100"))
    return out


def _random_common(fn, float_only=True):
    out = []
    out.append(case(fn, id="error: no size", random=True))
    for args, kw in [((2, 3), {}), (((2, 3),), {}), (([4],), {}), ((5,), {}), (((),), {}), ((0,), {}),
                     ((2, 0, 3), {}), ((3,), {"dtype": "float32"}), ((1, 1, 1, 1), {}), ((1024, 1024), {})]:
        out.append(case(fn, *args, id=f"{args} {kw}", random=True, **kw))
    out.append(case(fn, size=(2, 2), id="size kwarg", random=True))
    out.append(case(fn, 2, 3, requires_grad=True, id="requires_grad", random=True))
    out.append(case(fn, -1, id="error: negative size", random=True))
    out.append(case(fn, 2, -3, id="error: negative size 2-D", random=True))
    out.append(case(fn, 2.5, id="error: float size", random=True))
    if float_only:
        out.append(case(fn, 3, dtype="int64", id="error: int64 dtype", random=True))
        out.append(case(fn, 3, dtype="bool", id="error: bool dtype", random=True))
    return out


golden("rand")(lambda: _random_common("rand"))
golden("randn")(lambda: _random_common("randn"))


@golden("randint")
def _randint():
    out = []
    for args, kw in [((10, (3,)), {}), ((-5, 5, (2, 3)), {}), ((2, (4, 4)), {}), ((0, 1, (5,)), {}),
                     ((100, ()), {}), ((10, (0, 3)), {}), ((10, (3,)), {"dtype": "int32"}),
                     ((10, (3,)), {"dtype": "float32"}), ((2, (3,)), {"dtype": "bool"}), ((1 << 30, (4,)), {}),
                     ((-(1 << 20), 1 << 20, (1024, 1024)), {}), ((3, [2, 2]), {})]:
        out.append(case("randint", *args, id=f"{args} {kw}", random=True, **kw))
    out.append(case("randint", 0, 10, size=(2, 3), id="size kwarg", random=True))
    out.append(case("randint", low=1, high=4, size=(3,), id="all kwargs", random=True))
    out.append(case("randint", 5, 5, (3,), id="error: low == high", random=True))
    out.append(case("randint", 5, 2, (3,), id="error: low > high", random=True))
    out.append(case("randint", 0, (3,), id="error: high 0", random=True))
    out.append(case("randint", 10, id="error: size missing", random=True))
    out.append(case("randint", 10, (-1,), id="error: negative size", random=True))
    return out


@golden("randperm")
def _randperm():
    out = []
    for args, kw in [((10,), {}), ((1,), {}), ((0,), {}), ((5,), {"dtype": "int32"}), ((5,), {"dtype": "float32"}),
                     ((5,), {"dtype": "int64"}), ((1000,), {}), ((1 << 20,), {})]:
        out.append(case("randperm", *args, id=f"{args} {kw}", random=True, **kw))
    out.append(case("randperm", n=4, id="n kwarg", random=True))
    out.append(case("randperm", -1, id="error: negative n", random=True))
    out.append(case("randperm", 2.5, id="error: float n", random=True))
    out.append(case("randperm", 3, dtype="bool", id="error: bool dtype (probe)", random=True))
    return out
