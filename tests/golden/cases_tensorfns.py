"""Golden cases: diagonals, grids and products, clamp_min/clamp_max (imported by cases.py).

A case id ending in "[type only]" records PyTorch's exception type but not its message (the message
shows a tensor as PyTorch's C++ prints it); every other error case records the message too, and the
ops of these files check it (their records set extra["messages"]).
"""
from __future__ import annotations

import numpy as np

from cases import Big, V, bools, case, golden, ints, strided, tr, uniform


def u(shape, low=-3.0, high=3.0):
    return uniform(shape, low, high)


def idx(values):
    return np.asarray(values, dtype=np.int64)


def f(values):
    return np.asarray(values, dtype=np.float32)


# ---------------------------------------------------------------- diagonals

@golden("diagonal")
def _diagonal():
    out = []
    for shape, args in [((3, 4), ()), ((3, 4), (1,)), ((3, 4), (-1,)), ((3, 4), (5,)), ((3, 4), (-5,)),
                        ((2, 3, 4), (0, 0, 2)), ((2, 3, 4), (-1, 2, 0)), ((2, 3, 4), (1, -1, -2)), ((0, 3), ()),
                        ((4, 4), (0, 1, 0))]:
        out.append(case("diagonal", u(shape), *args, id=f"{shape} {args}"))
    out.append(case("diagonal", u((3, 4)), offset=1, dim1=1, dim2=0, id="kwargs"))
    out.append(case("Tensor.diagonal", u((3, 3)), id="method"))
    out.append(case("diagonal", ints((3, 3)), id="int64"))
    out.append(case("diagonal", bools((3, 3)), 1, id="bool"))
    out.append(case("diagonal", tr(u((4, 3))), 1, id="transposed"))
    out.append(case("diagonal", u((2, 3, 4)), 0, 1, 1, id="error: identical dims"))
    out.append(case("diagonal", u((2, 3)), 0, -1, 1, id="error: identical dims, negative"))
    out.append(case("diagonal", u((4,)), id="error: 1-D"))
    out.append(case("diagonal", u((3, 4)), 0, 0, 2, id="error: dim out of range"))
    out.append(case("diagonal", u((3, 4)), 1, id="grad", grad=True))
    out.append(case("diagonal", u((2, 3, 4)), -1, 2, 0, id="grad 3-D", grad=True))
    out.append(case("diagonal", tr(u((4, 3))), -1, id="grad transposed", grad=True))
    # writing through the view changes the base, and the gradient flows through the write
    out.append(case("Tensor.clone", V(u((3, 3)), ("mul", 1.0), ("diagonal",), ("mul_", 2.0),
                                      ("__getattribute__", "_base")), id="grad write through the view", grad=True))
    out.append(case("diagonal", Big((256, 256), seed=7001), 3, id="256x256"))
    return out


@golden("diag")
def _diag():
    out = []
    for shape, k in [((3,), 0), ((3,), 1), ((3,), -2), ((0,), 0), ((0,), 2), ((3, 4), 0), ((3, 4), 1), ((3, 4), -2),
                     ((3, 4), 5), ((1, 1), 0)]:
        out.append(case("diag", u(shape), k, id=f"{shape} diagonal={k}"))
    out.append(case("diag", u((3,)), diagonal=-1, id="kwarg"))
    out.append(case("Tensor.diag", u((4,)), id="method"))
    out.append(case("diag", ints((3,)), id="int64"))
    out.append(case("diag", tr(u((4, 3))), 1, id="transposed matrix"))
    out.append(case("diag", u(()), id="error: 0-D"))
    out.append(case("diag", u((2, 2, 2)), id="error: 3-D"))
    out.append(case("diag", u((3,)), 1, id="grad vector", grad=True))
    out.append(case("diag", u((3, 4)), -1, id="grad matrix", grad=True))
    out.append(case("diag", Big((1000,), seed=7002), id="1000"))
    return out


@golden("diag_embed")
def _diag_embed():
    out = []
    for shape, args in [((2, 3), ()), ((3,), ()), ((2, 3), (1,)), ((2, 3), (-2,)), ((2, 3), (1, 0, 2)),
                        ((2, 3), (-1, 2, 0)), ((1, 2), (0, 0, 2)), ((2, 0), ())]:
        out.append(case("diag_embed", u(shape), *args, id=f"{shape} {args}"))
    out.append(case("diag_embed", u((2, 3)), offset=1, dim1=-1, dim2=0, id="kwargs"))
    out.append(case("Tensor.diag_embed", ints((2, 2)), id="method int64"))
    out.append(case("diag_embed", u((3,)), 0, 0, 0, id="error: identical dims"))
    out.append(case("diag_embed", u(()), id="error: 0-D"))
    out.append(case("diag_embed", u((2, 3)), 1, id="grad", grad=True))
    out.append(case("diag_embed", u((2, 3, 2)), -1, 0, 3, id="grad 3-D", grad=True))
    return out


@golden("trace")
def _trace():
    out = [case("trace", u((3, 4)), id="float"), case("trace", ints((4, 3)), id="int64"),
           case("trace", ints((3, 3), dtype="int32"), id="int32 sums to int64"), case("trace", u((0, 3)), id="empty"),
           case("Tensor.trace", u((2, 2)), id="method"), case("trace", tr(u((5, 3))), id="transposed"),
           case("trace", bools((2, 2)), id="error: bool"), case("trace", u((3,)), id="error: 1-D"),
           case("trace", u((3, 3)), id="grad", grad=True), case("trace", tr(u((4, 3))), id="grad transposed", grad=True),
           case("trace", Big((512, 512), seed=7003), id="512x512")]
    return out


# ---------------------------------------------------------------- grids and products

@golden("meshgrid")
def _meshgrid():
    a, b, c = u((2,)), u((3,)), u((4,))
    out = [case("meshgrid", a, b, indexing="ij", id="ij"), case("meshgrid", a, b, indexing="xy", id="xy"),
           case("meshgrid", a, b, id="no indexing: warns, then ij"),
           case("meshgrid", a, b, c, indexing="ij", id="three ij"), case("meshgrid", a, b, c, indexing="xy", id="three xy"),
           case("meshgrid", [a, b], indexing="ij", id="list"), case("meshgrid", (a,), indexing="xy", id="one tensor"),
           case("meshgrid", f(3.0), b, indexing="ij", id="0-d and 1-D"),
           case("meshgrid", ints((2,)), ints((2,)), indexing="ij", id="int64"),
           case("meshgrid", a, ints((2,)), indexing="ij", id="error: dtypes differ"),
           case("meshgrid", u((2, 2)), indexing="ij", id="error: 2-D [type only]"),
           case("meshgrid", a, indexing="foo", id="error: indexing"),
           case("meshgrid", [], indexing="ij", id="error: empty"),
           case("meshgrid", a, b, indexing="ij", id="grad ij", grad=True),
           case("meshgrid", a, b, c, indexing="xy", id="grad three xy", grad=True)]
    return out


@golden("cartesian_prod")
def _cartesian_prod():
    return [case("cartesian_prod", ints((2,)), ints((3,)), id="two"),
            case("cartesian_prod", u((2,)), u((2,)), u((3,)), id="three"),
            case("cartesian_prod", u((3,)), id="one"),
            case("cartesian_prod", u((0,)), u((2,)), id="empty"),
            case("cartesian_prod", u((1, 2)), id="error: 2-D"),
            case("cartesian_prod", f(1.0), u((2,)), id="error: 0-D"),
            case("cartesian_prod", u((2,)), ints((2,)), id="error: dtypes differ"),
            case("cartesian_prod", u((2,)), u((3,)), id="grad", grad=True)]


@golden("kron")
def _kron():
    return [case("kron", ints((2, 2)), ints((2, 2)), id="int64 2x2"),
            case("kron", u((2,)), u((2, 2)), id="1-D and 2-D"),
            case("kron", f(2.0), u((3,)), id="0-D"),
            case("kron", u((2, 3, 1)), u((4,)), id="3-D and 1-D"),
            case("kron", u((2,)), ints((2,)), id="float and int64"),
            case("Tensor.kron", u((2, 2)), u((1, 3)), id="method"),
            case("kron", strided(u((4, 6))), u((2, 2)), id="strided"),
            case("kron", u((2, 3)), u((3, 2)), id="grad", grad=True),
            case("kron", u((3,)), u((2, 2)), id="grad mixed ranks", grad=True)]


@golden("tensordot")
def _tensordot():
    a3, b3 = u((3, 4, 5)), u((4, 5, 2))
    return [case("tensordot", a3, b3, id="dims 2"),
            case("tensordot", u((3, 4)), u((4, 5)), dims=1, id="dims 1"),
            case("tensordot", u((3, 4)), u((2, 5)), dims=0, id="dims 0 (outer)"),
            case("tensordot", u((3, 4, 5)), u((4, 3, 2)), dims=([1, 0], [0, 1]), id="dim lists"),
            case("tensordot", u((3, 4)), u((5, 4)), dims=[[-1], [1]], id="list of lists, negative"),
            case("tensordot", u((3, 1)), u((4, 5)), dims=([1], [0]), id="size-1 contracted dim broadcasts"),
            case("tensordot", ints((2, 3)), ints((3, 2)), dims=1, id="int64"),
            case("tensordot", u((3, 4)), u((4, 5)), dims=-1, id="error: negative dims"),
            case("tensordot", u((3, 4)), u((4, 5)), dims=3, id="error: too many dims"),
            case("tensordot", u((3, 4)), u((4, 5)), dims=([1], [1]), id="error: sizes differ"),
            case("tensordot", u((3, 4)), u((4, 5)), dims=([1], [0, 1]), id="error: list lengths differ"),
            case("tensordot", u((3, 4)), ints((4, 5)), dims=1, id="error: dtypes differ"),
            case("tensordot", a3, b3, id="grad", grad=True),
            case("tensordot", u((3, 4, 5)), u((4, 3, 2)), dims=([1, 0], [0, 1]), id="grad dim lists", grad=True),
            case("tensordot", Big((64, 64, 8), seed=7004), Big((64, 8, 32), seed=7005), dims=([1, 2], [0, 1]),
                 id="64x64x8 . 64x8x32")]


@golden("cross")
def _cross():
    return [case("cross", u((2, 3)), u((2, 3)), dim=1, id="dim 1"),
            case("cross", u((3, 4)), u((3, 4)), dim=0, id="dim 0"),
            case("cross", u((3, 3)), u((3, 3)), id="no dim: first of size 3 (deprecated)"),
            case("cross", u((1, 3)), u((4, 3)), dim=-1, id="broadcast"),
            case("cross", ints((2, 3)), ints((2, 3)), dim=1, id="int64"),
            case("Tensor.cross", u((3,)), u((3,)), dim=0, id="method"),
            case("linalg.cross", u((5, 3)), u((5, 3)), id="linalg default dim -1"),
            case("linalg.cross", u((3, 2)), u((3, 2)), dim=0, id="linalg dim 0"),
            case("linalg.cross", u((2, 1, 3)), u((4, 3)), id="error: linalg ranks differ"),
            case("cross", u((2, 4)), u((2, 4)), id="error: no dim of size 3"),
            case("cross", u((2, 3)), u((2, 4)), dim=1, id="error: dim sizes differ"),
            case("linalg.cross", u((3, 4)), u((3, 4)), id="error: linalg last dim not 3"),
            case("linalg.cross", u((3,)), ints((3,)), id="error: dtypes differ"),
            case("linalg.cross", u((3, 3)), u((3, 3)), dim=5, id="error: dim out of range"),
            case("cross", u((4, 3)), u((4, 3)), dim=1, id="grad", grad=True),
            case("linalg.cross", u((1, 3)), u((4, 3)), id="grad broadcast", grad=True)]


@golden("cdist")
def _cdist():
    a, b = u((2, 3, 4)), u((2, 5, 4))
    ia, ib = ints((4, 3), -3, 3).astype(np.float32), ints((3, 3), -3, 3).astype(np.float32)
    out = [case("cdist", a, b, p=p, id=f"p={p}") for p in (2.0, 1.0, 0.0, 3.0, 0.5, float("inf"))]
    out += [case("cdist", u((3, 4)), u((5, 4)), id="2-D"),
            case("cdist", u((1, 3, 4)), u((2, 5, 4)), id="broadcast batch"),
            case("cdist", u((30, 4)), u((6, 4)), id="30 rows: through mm"),
            case("cdist", u((30, 4)), u((6, 4)), compute_mode="donot_use_mm_for_euclid_dist", id="30 rows, no mm"),
            case("cdist", u((3, 4)), u((5, 4)), compute_mode="use_mm_for_euclid_dist", id="mm forced"),
            case("cdist", u((3, 0)), u((5, 0)), id="no columns"),
            case("cdist", u((3, 4)), u((5, 4)), p=-1.0, id="error: negative p"),
            case("cdist", u((3, 4)), u((5, 3)), id="error: columns differ"),
            case("cdist", u((4,)), u((5, 4)), id="error: 1-D"),
            case("cdist", ints((3, 4)), ints((5, 4)), id="error: int64"),
            case("cdist", u((3, 4)), u((5, 4)), compute_mode="foo", id="error: compute_mode")]
    for p in (2.0, 1.0, 3.0, 1.5, 0.5, float("inf")):
        out.append(case("cdist", ia, ib, p=p, id=f"grad p={p} (ties and zero differences)", grad=True))
    out.append(case("cdist", u((3, 4)), u((3, 4)), id="grad", grad=True))
    out.append(case("cdist", u((30, 4)), u((6, 4)), id="grad through mm", grad=True))
    return out


def _clamp_one(fn, bound_name):
    def gen():
        x = u((3, 4))
        return [case(fn, x, 0.5, id="float bound"), case(fn, x, u((3, 4)), id="tensor bound"),
                case(fn, x, u((4,)), id="broadcast tensor bound"), case(fn, ints((3, 4)), 2, id="int64 int bound"),
                case(fn, ints((3, 4)), 2.5, id="int64 float bound gives float"),
                case(f"Tensor.{fn}", x, -1.0, id="method"), case(f"Tensor.{fn}_", u((2, 2)), 0.0, id="in-place"),
                case(fn, f([np.nan, -np.inf, np.inf, 0.0]), 1.0, id="special values"),
                case(fn, x, **{bound_name: 0.0}, id="keyword"),
                case(fn, x, 0.25, id="grad", grad=True), case(fn, x, u((3, 1)), id="grad tensor bound", grad=True)]
    golden(fn)(gen)


_clamp_one("clamp_min", "min")
_clamp_one("clamp_max", "max")
