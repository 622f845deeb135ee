"""Golden cases: the extra indexing ops: repeat_interleave, unravel_index, take_along_dim, masked_scatter,
index_fill, scatter_reduce, ravel, type_as (imported by cases.py). Error cases record PyTorch's message too,
except ids ending in "[type only]"."""
from __future__ import annotations

import numpy as np

from cases import Big, bools, case, distinct, golden, ints, tr
from cases_tensorfns import f, idx, u  # the shared input helpers


# ---------------------------------------------------------------- indexing

@golden("repeat_interleave")
def _repeat_interleave():
    out = _repeat_base(u((2, 3)))
    out.append(case("repeat_interleave", Big((1000, 3), seed=7006), ints((1000,), 0, 5), dim=0, id="1000 rows"))
    return out


def _repeat_base(x):
    return [case("repeat_interleave", x, 2, id="int, flattened"),
            case("repeat_interleave", x, 2, dim=0, id="int dim 0"),
            case("repeat_interleave", x, 3, dim=-1, id="int dim -1"),
            case("repeat_interleave", x, 0, dim=1, id="zero repeats"),
            case("repeat_interleave", x, idx([1, 0, 2]), dim=1, id="tensor dim 1"),
            case("repeat_interleave", x, idx([3, 1]), dim=0, id="tensor dim 0"),
            case("repeat_interleave", x, idx([2]), dim=0, id="one-element tensor"),
            case("repeat_interleave", x, np.array(2, np.int64), dim=1, id="0-d tensor"),
            case("repeat_interleave", x, idx([1, 2]), dim=0, output_size=3, id="output_size"),
            case("repeat_interleave", idx([2, 0, 1]), id="repeats only"),
            case("repeat_interleave", np.array([2, 0, 1], np.int32), id="repeats only int32"),
            case("repeat_interleave", idx([]), id="repeats only, empty"),
            case("Tensor.repeat_interleave", ints((3,)), idx([1, 2, 3]), id="method int64"),
            case("repeat_interleave", f(3.0), 2, id="0-d input"),
            case("repeat_interleave", x, idx([1, -2]), dim=0, id="error: negative repeats"),
            case("repeat_interleave", x, -1, id="error: negative int"),
            case("repeat_interleave", x, idx([1, 2, 3]), dim=0, id="error: repeats size"),
            case("repeat_interleave", x, idx([[1, 2]]), dim=0, id="error: 2-D repeats"),
            case("repeat_interleave", x, f([1.0, 2.0]), dim=0, id="error: float repeats"),
            case("repeat_interleave", x, idx([1, 2]), dim=0, output_size=4, id="error: output_size"),
            case("repeat_interleave", x, 2, dim=2, id="error: dim out of range"),
            case("repeat_interleave", x, 2, dim=1, id="grad int", grad=True),
            case("repeat_interleave", x, idx([2, 0, 3]), dim=1, id="grad tensor", grad=True),
            case("repeat_interleave", tr(u((3, 2))), idx([1, 2]), dim=0, id="grad transposed", grad=True)]


@golden("unravel_index")
def _unravel_index():
    return [case("unravel_index", idx([5, 0, 11]), (3, 4), id="1-D"),
            case("unravel_index", np.array(7, np.int64), (3, 4), id="0-d"),
            case("unravel_index", idx([[1, 5], [3, 2]]), 6, id="int shape"),
            case("unravel_index", idx([12, -1, -13, 30]), (3, 4), id="outside the shape wraps"),
            case("unravel_index", np.array([1, 7], np.int32), (2, 2, 2), id="int32"),
            case("unravel_index", idx([1]), (), id="empty shape"),
            case("unravel_index", f([1.0]), (3, 4), id="error: float indices"),
            case("unravel_index", np.array([True]), (3, 4), id="error: bool indices"),
            case("unravel_index", idx([1]), (3, -4), id="error: negative shape"),
            case("unravel_index", idx([1]), (3, 2.0), id="error: float in shape")]


@golden("take_along_dim")
def _take_along_dim():
    x = distinct((2, 3))
    return [case("take_along_dim", x, idx([[0], [2]]), dim=1, id="dim 1"),
            case("take_along_dim", x, idx([0, 5]), id="flattened"),
            case("take_along_dim", x, idx([[0, 1, 1]]), dim=0, id="broadcast indices"),
            case("take_along_dim", x, idx([[0, 1]]), dim=0, id="error: other dims do not broadcast"),
            case("take_along_dim", x, idx([[1], [0]]), dim=1, id="indices per row"),
            case("take_along_dim", x, idx([[3, -1, 7, -4]]), dim=1, id="indices wrap"),
            case("Tensor.take_along_dim", ints((3, 4)), idx([[0], [1], [3]]), dim=-1, id="method int64"),
            case("take_along_dim", tr(u((4, 3))), idx([[0, 1, 2]]), dim=1, id="transposed"),
            case("take_along_dim", x, idx([[[0]]]), dim=1, id="error: ranks differ"),
            case("take_along_dim", x, f([[0.0]]), dim=1, id="error: float indices"),
            case("take_along_dim", x, np.array([[0]], np.int32), dim=1, id="error: int32 indices with dim"),
            case("take_along_dim", x, idx([[0, 1]]), dim=2, id="error: dim out of range"),
            case("take_along_dim", x, idx([[0], [1], [0]]), dim=1, id="error: not broadcastable"),
            case("take_along_dim", x, idx([6]), id="error: flattened index out of range"),
            case("take_along_dim", u((3, 4)), idx([[0, 3], [1, 1], [2, 0]]), dim=1, id="grad", grad=True),
            case("take_along_dim", u((3, 4)), idx([1, 1, 11]), id="grad flattened", grad=True)]


@golden("masked_scatter")
def _masked_scatter():
    m = np.array([[True, False, True], [False, True, True]])
    return [case("masked_scatter", u((2, 3)), m, u((2, 5)), id="basic"),
            case("masked_scatter", u((2, 3)), np.array([True, False, True]), u((6,)), id="mask broadcasts"),
            case("masked_scatter", u((3,)), m, u((6,)), id="input broadcasts"),
            case("Tensor.masked_scatter_", u((2, 3)), np.array([[True], [False]]), u((2, 5)), id="in-place"),
            case("masked_scatter", ints((2, 3)), m, ints((4,)), id="int64"),
            case("masked_scatter", f(1.0), np.array(True), f([4.0, 5.0]), id="0-d"),
            case("masked_scatter", u((2,)), np.array([False, False]), f([]), id="nothing selected, empty source"),
            case("Tensor.masked_scatter", u((2, 3)), m, u((4,)), id="method"),
            case("masked_scatter", u((2, 3)), m.astype(np.int64), u((6,)), id="error: int64 mask"),
            case("masked_scatter", u((2, 3)), m, ints((6,)), id="error: dtypes differ"),
            case("masked_scatter", u((2, 3)), m, u((3,)), id="error: too few source elements"),
            case("masked_scatter", u((2,)), np.array([True, True]), f([]), id="error: empty source"),
            case("masked_scatter", u((2, 3)), np.array([True, False]), u((6,)), id="error: not broadcastable"),
            case("masked_scatter", u((2, 3)), m, u((2, 5)), id="grad", grad=True),
            case("masked_scatter", u((3,)), m, u((8,)), id="grad broadcast input", grad=True)]


@golden("index_fill")
def _index_fill():
    x = u((2, 3))
    return [case("index_fill", x, 1, idx([0, 2]), -1.0, id="dim 1"),
            case("index_fill", x, 0, idx([1]), 2.0, id="dim 0"),
            case("index_fill", x, 1, idx([0, -1, 0]), 5.0, id="negative and repeated"),
            case("index_fill", x, 1, np.array(1, np.int64), f(2.5), id="0-d index, 0-d value"),
            case("index_fill", ints((2, 3)), 1, idx([1]), 2.7, id="int64 with a float value"),
            case("Tensor.index_fill_", u((3, 2)), 0, idx([2, 0]), 0.0, id="in-place"),
            case("index_fill", f(5.0), 0, idx([0]), 2.0, id="0-d input"),
            case("index_fill", bools((2, 2)), 0, idx([1]), True, id="bool"),
            case("index_fill", x, 1, idx([0, 3]), -1.0, id="error: index out of range"),
            case("index_fill", x, 1, idx([-4]), -1.0, id="error: negative index out of range"),
            case("index_fill", x, 1, idx([[0]]), -1.0, id="error: 2-D index"),
            case("index_fill", x, 1, f([0.0]), -1.0, id="error: float index"),
            case("index_fill", x, 1, np.array([0], np.int32), -1.0, id="error: int32 index"),
            case("index_fill", x, 1, idx([0]), f([2.0]), id="error: 1-D value"),
            case("index_fill", x, 2, idx([0]), 1.0, id="error: dim out of range"),
            case("index_fill", u((3, 4)), 1, idx([0, 2, 0]), 1.0, id="grad", grad=True),
            case("index_fill", u((3, 4)), 0, idx([1, 1]), f(2.0), id="grad value tensor", grad=True)]


@golden("scatter_reduce")
def _scatter_reduce():
    out = []
    x, i, s = f([1.0, 2.0, 3.0, 4.0]), idx([0, 1, 0, 1, 2, 1]), f([5.0, 6.0, 7.0, 8.0, 9.0, np.nan])
    xz, sz = f([1.0, 2.0, 0.0, 4.0]), f([5.0, 2.0, 0.0, 8.0, 9.0, 0.0])
    for red in ("sum", "prod", "mean", "amax", "amin"):
        for inc in (True, False):
            out.append(case("scatter_reduce", x, 0, i, s, red, include_self=inc, id=f"{red} include_self={inc}"))
            out.append(case("scatter_reduce", u((3, 4)), 1, ints((3, 5), 0, 3), u((3, 6)), red, include_self=inc,
                            id=f"{red} include_self={inc} 2-D, src larger than index"))
            out.append(case("scatter_reduce", xz, 0, i, sz, red, include_self=inc, grad=True,
                            id=f"grad {red} include_self={inc} (zeros and ties)"))
    out += [case("scatter_reduce", u((4, 2)), 0, ints((6, 2), 0, 3), u((6, 2)), "amin", id="2-D dim 0"),
            case("Tensor.scatter_reduce", x, 0, i, s, reduce="amax", id="method"),
            case("Tensor.scatter_reduce_", u((4,)), 0, i, u((6,)), "sum", id="in-place"),
            case("scatter_reduce", x, 0, i, s, "max", id="reduce 'max' (accepted as amax)"),
            case("scatter_reduce", idx([2, 3]), 0, idx([0, 0, 1]), idx([4, -5, 6]), "mean", id="int64 mean floors"),
            case("scatter_reduce", idx([2, 3]), 0, idx([0, 0, 1]), idx([4, -5, 6]), "prod", id="int64 prod"),
            case("scatter_reduce", f(5.0), 0, idx([0, 0]), f([2.0, 3.0]), "prod", id="0-d self"),
            case("scatter_reduce", u((2, 2)), 0, np.zeros((0, 2), np.int64), u((3, 3)), "sum", id="empty index"),
            case("scatter_reduce", x, 0, i, s, "foo", id="error: reduce"),
            case("scatter_reduce", x, 0, i, ints((6,)), "sum", id="error: dtypes differ"),
            case("scatter_reduce", x, 0, idx([[0]]), f([1.0]), "sum", id="error: ranks differ"),
            case("scatter_reduce", x, 0, f([0.0]), f([1.0]), "sum", id="error: float index"),
            case("scatter_reduce", x, 0, idx([0, 5]), f([1.0, 1.0]), "amax", id="error: index out of range"),
            case("scatter_reduce", x, 0, idx([0, -1]), f([1.0, 1.0]), "prod", id="error: negative index"),
            case("scatter_reduce", u((2, 2)), 1, idx([[0, 1, 1]]), u((1, 2)), "sum", id="error: index larger"),
            case("scatter_reduce", bools((2,)), 0, idx([0, 1]), bools((2,)), "mean", id="error: bool mean"),
            case("scatter_reduce", Big((64, 64), seed=7008), 1, ints((64, 100), 0, 63), Big((64, 100), seed=7009),
                 "amax", include_self=False, id="64x64 from 64x100")]
    return out


@golden("ravel")
def _ravel():
    return [case("ravel", u((2, 3)), id="2-D"), case("ravel", tr(u((3, 2))), id="transposed (copies)"),
            case("ravel", f(2.0), id="0-d"), case("Tensor.ravel", ints((2, 2)), id="method int64"),
            case("ravel", u((2, 3, 4)), id="grad", grad=True), case("ravel", tr(u((3, 2))), id="grad transposed",
                                                                      grad=True)]


@golden("type_as")
def _type_as():
    return [case("Tensor.type_as", ints((2, 3)), u((1,)), id="int64 as float32"),
            case("Tensor.type_as", u((2, 3)), ints((1,)), id="float32 as int64"),
            case("Tensor.type_as", u((2, 3)), bools((1,)), id="float32 as bool"),
            case("Tensor.type_as", u((2, 3)), u((4,)), id="same dtype"),
            case("Tensor.type_as", u((2, 3)), u((4,)), id="grad same dtype", grad=True)]
