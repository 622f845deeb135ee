"""Golden cases: shape, view, joining and indexing ops (imported by cases.py)."""
from __future__ import annotations

import numpy as np

from cases import SPECIAL, Big, V, _rng, bools, case, golden, ints, nonleaf, strided, tr, uniform


def u(shape):
    return uniform(shape, -3, 3)


def idx(values):
    return np.asarray(values, dtype=np.int64)


def perm_index(shape, dim, size):
    """An int64 index of ``shape`` whose entries along ``dim`` are distinct, in [0, size) (no duplicates)."""
    shape = tuple(shape)
    n = shape[dim]
    if n == 0 or 0 in shape:
        return np.zeros(shape, np.int64)
    moved = np.moveaxis(np.zeros(shape, np.int64), dim, -1)
    flat = moved.reshape(-1, n)
    for r in range(flat.shape[0]):
        flat[r] = _rng.permutation(size)[:n]
    return np.moveaxis(flat.reshape(moved.shape), -1, dim).copy()


# ---------------------------------------------------------------- views and reshapes

@golden("reshape")
def _reshape():
    out = []
    for src, dst in [((2, 3, 4), (6, 4)), ((2, 3, 4), (24,)), ((2, 3, 4), (-1,)), ((2, 3, 4), (4, -1)),
                     ((2, 3, 4), (2, 1, 3, 1, 4)), ((6,), (2, 3)), ((), (1,)), ((1,), ()), ((), ()), ((0, 3), (3, 0)),
                     ((0, 3), (-1, 3)), ((4, 1), (4,)), ((5,), (5, 1, 1))]:
        out.append(case("reshape", u(src), dst, id=f"{src} -> {dst}"))
    out.append(case("Tensor.reshape", u((2, 3, 4)), 3, 8, id="method varargs"))
    out.append(case("Tensor.reshape", u((2, 3, 4)), (4, 6), id="method tuple"))
    out.append(case("Tensor.reshape", u((2, 3, 4)), [-1, 2], id="method list"))
    out.append(case("reshape", ints((2, 3)), (3, 2), id="int64"))
    out.append(case("reshape", bools((2, 3)), (6,), id="bool"))
    out.append(case("reshape", tr(u((4, 3))), (12,), id="transposed (copies)"))
    out.append(case("reshape", strided(u((3, 8))), (2, 6), id="strided (copies)"))
    out.append(case("reshape", V(u((3, 1)), ("expand", 3, 4)), (4, 3), id="expanded (copies)"))
    out.append(case("reshape", u((2, 3, 4)), (5, 5), id="error: wrong numel"))
    out.append(case("reshape", u((2, 3, 4)), (-1, -1), id="error: two -1"))
    out.append(case("reshape", u((2, 3, 4)), (5, -1), id="error: -1 not divisible"))
    out.append(case("reshape", u((0, 3)), (0, -1), id="error: -1 with zero numel"))
    out.append(case("reshape", u((2, 3, 4)), (6, 4), id="grad", grad=True))
    out.append(case("reshape", tr(u((4, 3))), (2, 6), id="grad transposed", grad=True))
    out.append(case("Tensor.reshape", u((2, 3)), -1, id="grad method", grad=True))
    out.append(case("reshape", Big((1024, 1024), seed=1400), (512, 2048), id="1M"))
    out.append(case("reshape", V(Big((1024, 1024), seed=1401), ("t",)), (-1,), id="1M transposed", grad=True))
    return out


@golden("view")
def _view():
    out = []
    for src, dst in [((2, 3, 4), (6, 4)), ((2, 3, 4), (24,)), ((2, 3, 4), (-1, 2)), ((6,), (1, 6, 1)), ((), (1,)),
                     ((1,), ()), ((0, 4), (4, 0)), ((3, 4), (3, 2, 2))]:
        out.append(case("Tensor.view", u(src), dst, id=f"{src} -> {dst}"))
    out.append(case("Tensor.view", u((2, 3, 4)), 4, 6, id="varargs"))
    out.append(case("Tensor.view", u((2, 3, 4)), -1, id="-1"))
    out.append(case("Tensor.view", ints((2, 6)), (3, 4), id="int64"))
    out.append(case("Tensor.view", V(u((4, 6)), ("__getitem__", slice(1, 3))), (12,), id="row slice is viewable"))
    out.append(case("Tensor.view", tr(u((4, 3))), (12,), id="error: transposed is not viewable"))
    out.append(case("Tensor.view", strided(u((3, 8))), (12,), id="strided rows flatten (viewable)"))
    out.append(case("Tensor.view", tr(u((4, 3))), (3, 4), id="transposed, same shape"))
    out.append(case("Tensor.view", V(u((2, 3, 4)), ("permute", 1, 0, 2)), (3, 2, 2, 2), id="permuted, split last"))
    out.append(case("Tensor.view", u((2, 3, 4)), (5, 5), id="error: wrong numel"))
    out.append(case("Tensor.view", u((2, 3, 4)), (6, 4), id="grad", grad=True))
    out.append(case("Tensor.view", u((2, 3)), -1, id="grad flat", grad=True))
    out.append(case("Tensor.view", Big((1024, 1024), seed=1402), (256, 4096), id="1M", grad=True))
    return out


@golden("view_as")
def _view_as():
    out = []
    for src, dst in [((2, 3, 4), (6, 4)), ((6,), (2, 3)), ((), (1,)), ((0, 2), (2, 0)), ((3, 4), (12,))]:
        out.append(case("Tensor.view_as", u(src), u(dst), id=f"{src} as {dst}"))
    out.append(case("Tensor.view_as", ints((2, 3)), u((3, 2)), id="int64 as float shape"))
    out.append(case("Tensor.view_as", u((2, 3)), ints((6,)), id="float as int64 shape"))
    out.append(case("Tensor.view_as", u((2, 3)), u((5,)), id="error: wrong numel"))
    out.append(case("Tensor.view_as", tr(u((4, 3))), u((12,)), id="error: transposed"))
    out.append(case("Tensor.view_as", u((2, 3, 4)), u((4, 6)), id="grad", grad=True))
    out.append(case("Tensor.view_as", u((2, 3)), V(u((3, 2)), ("t",)), id="grad other transposed", grad=True))
    out.append(case("Tensor.view_as", V(u((4, 6)), ("__getitem__", slice(1, 3))), u((3, 4)), id="grad of a row slice",
                    grad=True))
    out.append(case("Tensor.view_as", Big((1024, 1024), seed=1403), Big((1 << 20,), seed=1404), id="1M"))
    return out


@golden("flatten")
def _flatten():
    out = []
    for shape, kw in [((2, 3, 4), {}), ((2, 3, 4), {"start_dim": 1}), ((2, 3, 4), {"end_dim": 1}),
                      ((2, 3, 4, 5), {"start_dim": 1, "end_dim": 2}), ((2, 3, 4), {"start_dim": -2}),
                      ((2, 3, 4), {"start_dim": 1, "end_dim": -1}), ((2, 3, 4), {"start_dim": 1, "end_dim": 1}),
                      ((), {}), ((5,), {}), ((0, 3), {}), ((2, 0, 3), {"start_dim": 1})]:
        out.append(case("flatten", u(shape), id=f"{shape} {kw}", **kw))
    out.append(case("flatten", u((2, 3, 4)), 1, 2, id="positional"))
    out.append(case("Tensor.flatten", u((2, 3, 4)), id="method"))
    out.append(case("Tensor.flatten", u((2, 3, 4)), 1, id="method start_dim"))
    out.append(case("flatten", ints((2, 3)), id="int64"))
    out.append(case("flatten", tr(u((4, 3))), id="transposed"))
    out.append(case("flatten", u((2, 3, 4)), start_dim=2, end_dim=1, id="error: start after end"))
    out.append(case("flatten", u((2, 3, 4)), start_dim=3, id="error: dim out of range"))
    out.append(case("flatten", u((2, 3, 4)), id="grad", grad=True))
    out.append(case("flatten", V(u((2, 3, 4)), ("permute", 2, 0, 1)), start_dim=1, id="grad permuted", grad=True))
    out.append(case("flatten", u(()), id="grad 0-d", grad=True))
    out.append(case("flatten", Big((64, 128, 128), seed=1405), start_dim=1, id="1M"))
    return out


@golden("unflatten")
def _unflatten():
    out = []
    for shape, dim, sizes in [((2, 12), 1, (3, 4)), ((2, 12), -1, (2, -1)), ((12,), 0, (2, 3, 2)),
                              ((6, 5), 0, (1, 6)), ((6, 5), 0, (6, 1)), ((4, 6, 2), 1, (3, 2)), ((0, 6), 1, (2, 3)),
                              ((6, 0), 0, (-1, 2))]:
        out.append(case("unflatten", u(shape), dim, sizes, id=f"{shape} dim={dim} {sizes}"))
    out.append(case("Tensor.unflatten", u((2, 12)), 1, (4, 3), id="method"))
    out.append(case("unflatten", ints((2, 12)), 1, [3, 4], id="int64 sizes list"))
    out.append(case("unflatten", u((2, 12)), 1, (5, 2), id="error: sizes do not multiply"))
    out.append(case("unflatten", u((2, 12)), 2, (3, 4), id="error: dim out of range"))
    out.append(case("unflatten", tr(u((12, 2))), 0, (2, 1), id="transposed"))
    out.append(case("unflatten", u((2, 12)), 1, (3, 4), id="grad", grad=True))
    out.append(case("unflatten", tr(u((12, 2))), 1, (3, 4), id="grad transposed", grad=True))
    out.append(case("unflatten", u((2, 12)), 1, (-1, 6), id="grad -1 size", grad=True))
    out.append(case("unflatten", Big((1 << 20,), seed=1406), 0, (1024, -1), id="1M"))
    return out


@golden("squeeze")
def _squeeze():
    out = []
    for shape, args in [((1, 3, 1, 4), ()), ((1, 3, 1, 4), (0,)), ((1, 3, 1, 4), (2,)), ((1, 3, 1, 4), (1,)),
                        ((1, 3, 1, 4), (-2,)), ((1, 3, 1, 4), ((0, 2),)), ((1, 3, 1, 4), ((0, 1),)),
                        ((1,), ()), ((), ()), ((), (0,)), ((1, 1), ()), ((0, 1), ()), ((2, 3), ())]:
        out.append(case("squeeze", u(shape), *args, id=f"{shape} {args}"))
    out.append(case("squeeze", u((1, 3, 1)), dim=2, id="dim kwarg"))
    out.append(case("Tensor.squeeze", u((1, 3, 1)), id="method"))
    out.append(case("Tensor.squeeze", u((1, 3, 1)), 0, id="method dim"))
    out.append(case("Tensor.squeeze_", u((1, 3, 1)), id="in-place"))
    out.append(case("squeeze", ints((1, 3)), id="int64"))
    out.append(case("squeeze", u((1, 3, 1)), 3, id="error: dim out of range"))
    out.append(case("squeeze", V(u((3, 1, 4)), ("permute", 1, 2, 0)), id="permuted"))
    out.append(case("squeeze", u((1, 3, 1, 4)), id="grad", grad=True))
    out.append(case("squeeze", V(u((4, 1, 3)), ("transpose", 0, 2)), 1, id="grad transposed", grad=True))
    out.append(case("squeeze", u((1, 3, 1, 4)), (0, 2), id="grad dims tuple", grad=True))
    out.append(case("squeeze", Big((1, 1024, 1, 1024), seed=1407), id="1M"))
    return out


@golden("unsqueeze")
def _unsqueeze():
    out = []
    for shape, dim in [((3, 4), 0), ((3, 4), 1), ((3, 4), 2), ((3, 4), -1), ((3, 4), -3), ((), 0), ((), -1),
                       ((0, 2), 1), ((5,), 1)]:
        out.append(case("unsqueeze", u(shape), dim, id=f"{shape} dim={dim}"))
    out.append(case("Tensor.unsqueeze", u((3, 4)), 1, id="method"))
    out.append(case("Tensor.unsqueeze_", u((3, 4)), 0, id="in-place"))
    out.append(case("unsqueeze", ints((3,)), 0, id="int64"))
    out.append(case("unsqueeze", u((3, 4)), 3, id="error: dim out of range"))
    out.append(case("unsqueeze", u((3, 4)), -4, id="error: negative dim out of range"))
    out.append(case("unsqueeze", tr(u((4, 3))), 1, id="transposed"))
    out.append(case("unsqueeze", u((3, 4)), 1, id="grad", grad=True))
    out.append(case("unsqueeze", tr(u((4, 3))), -1, id="grad transposed", grad=True))
    out.append(case("unsqueeze", u(()), 0, id="grad 0-d", grad=True))
    out.append(case("unsqueeze", Big((1024, 1024), seed=1408), 1, id="1M"))
    return out


@golden("permute")
def _permute():
    out = []
    for shape, dims in [((2, 3, 4), (2, 0, 1)), ((2, 3, 4), (0, 1, 2)), ((2, 3, 4), (-1, 0, -2)),
                        ((2, 3, 4, 5), (3, 1, 0, 2)), ((3, 4), (1, 0)), ((5,), (0,)), ((), ()), ((0, 3), (1, 0))]:
        out.append(case("permute", u(shape), dims, id=f"{shape} {dims}"))
    out.append(case("Tensor.permute", u((2, 3, 4)), 1, 2, 0, id="method varargs"))
    out.append(case("Tensor.permute", u((2, 3, 4)), (1, 2, 0), id="method tuple"))
    out.append(case("permute", ints((2, 3)), (1, 0), id="int64"))
    out.append(case("permute", u((2, 3, 4)), (0, 1), id="error: too few dims"))
    out.append(case("permute", u((2, 3, 4)), (0, 1, 1), id="error: repeated dim"))
    out.append(case("permute", u((2, 3, 4)), (0, 1, 3), id="error: dim out of range"))
    out.append(case("permute", V(u((2, 3, 4)), ("transpose", 0, 2)), (1, 0, 2), id="of a transposed view"))
    out.append(case("permute", u((2, 3, 4)), (2, 0, 1), id="grad", grad=True))
    out.append(case("permute", tr(u((4, 3, 2))), (1, 2, 0), id="grad of a view", grad=True))
    out.append(case("permute", Big((64, 128, 128), seed=1409), (2, 0, 1), id="1M", grad=True))
    return out


@golden("transpose")
def _transpose():
    out = []
    for shape, a, b in [((3, 4), 0, 1), ((3, 4), 1, 0), ((2, 3, 4), 0, 2), ((2, 3, 4), -1, -2), ((2, 3, 4), 1, 1),
                        ((5,), 0, 0), ((), 0, 0), ((), -1, 0), ((0, 3), 0, 1)]:
        out.append(case("transpose", u(shape), a, b, id=f"{shape} {a} {b}"))
    out.append(case("Tensor.transpose", u((3, 4)), 0, 1, id="method"))
    out.append(case("swapaxes", u((2, 3, 4)), 0, 1, id="swapaxes alias"))
    out.append(case("Tensor.transpose_", u((3, 4)), 0, 1, id="in-place"))
    out.append(case("transpose", ints((3, 4)), 0, 1, id="int64"))
    out.append(case("transpose", u((3, 4)), 0, 2, id="error: dim out of range"))
    out.append(case("transpose", tr(u((4, 3))), 0, 1, id="of a transposed view (contiguous again)"))
    out.append(case("transpose", u((2, 3, 4)), 0, 2, id="grad", grad=True))
    out.append(case("transpose", strided(u((3, 8))), 0, 1, id="grad strided", grad=True))
    out.append(case("transpose", Big((1024, 1024), seed=1410), 0, 1, id="1M", grad=True))
    return out


@golden("t")
def _t():
    out = []
    for shape in [(3, 4), (5,), (), (1, 1), (0, 3), (4, 1)]:
        out.append(case("t", u(shape), id=f"{shape}"))
    out.append(case("Tensor.t", u((3, 4)), id="method"))
    out.append(case("Tensor.t_", u((3, 4)), id="in-place"))
    out.append(case("t", ints((2, 3)), id="int64"))
    out.append(case("t", u((2, 3, 4)), id="error: 3-D"))
    out.append(case("t", tr(u((4, 3))), id="of a transposed view"))
    out.append(case("t", u((3, 4)), id="grad", grad=True))
    out.append(case("t", u((5,)), id="grad 1-D", grad=True))
    out.append(case("t", tr(u((4, 3))), id="grad of a transposed view", grad=True))
    out.append(case("t", Big((1024, 1024), seed=1411), id="1M"))
    return out


@golden("T")
def _T():  # noqa: N802
    out = []
    for shape in [(3, 4), (5,), (), (1, 1), (0, 3), (2, 3, 4)]:
        out.append(case("Tensor.T", u(shape), id=f"{shape}"))
    out.append(case("Tensor.T", ints((2, 3)), id="int64"))
    out.append(case("Tensor.T", tr(u((4, 3))), id="of a transposed view"))
    out.append(case("Tensor.T", u((3, 4)), id="grad", grad=True))
    out.append(case("Tensor.T", u((2, 3, 4)), id="grad 3-D (reverses dims)", grad=True))
    out.append(case("Tensor.T", tr(u((4, 3))), id="grad of a transposed view", grad=True))
    out.append(case("Tensor.T", Big((1024, 1024), seed=1412), id="1M"))
    return out


@golden("mT")
def _mT():  # noqa: N802
    out = []
    for shape in [(3, 4), (2, 3, 4), (2, 1, 3, 4), (1, 1), (0, 3, 2)]:
        out.append(case("Tensor.mT", u(shape), id=f"{shape}"))
    # a property that raises: read through __getattribute__ so that the raise happens inside the call
    out.append(case("Tensor.__getattribute__", u((5,)), "mT", id="error: 1-D"))
    out.append(case("Tensor.mT", ints((2, 2, 3)), id="int64"))
    out.append(case("Tensor.mT", V(u((4, 3, 2)), ("permute", 2, 1, 0)), id="of a permuted view"))
    out.append(case("Tensor.mT", u((2, 3, 4)), id="grad", grad=True))
    out.append(case("Tensor.mT", tr(u((4, 3))), id="grad of a transposed view", grad=True))
    out.append(case("Tensor.mT", u((2, 1, 3, 4)), id="grad 4-D", grad=True))
    out.append(case("Tensor.mT", Big((16, 256, 256), seed=1413), id="1M"))
    return out


@golden("expand")
def _expand():
    out = []
    for shape, size in [((3, 1), (3, 4)), ((1,), (5,)), ((3, 1), (2, 3, 4)), ((3, 1), (-1, 4)), ((), (2, 3)),
                        ((1, 1), (0, 3)), ((2, 3), (2, 3)), ((1, 3, 1), (2, 3, 5)), ((3,), (2, 1, 3))]:
        out.append(case("Tensor.expand", u(shape), size, id=f"{shape} -> {size}"))
    out.append(case("Tensor.expand", u((3, 1)), 3, 4, id="varargs"))
    out.append(case("Tensor.expand", u((3, 1)), -1, 4, id="varargs -1"))
    out.append(case("Tensor.expand", ints((3, 1)), (3, 4), id="int64"))
    out.append(case("Tensor.expand", bools((1, 2)), (3, 2), id="bool"))
    out.append(case("Tensor.expand", u((3, 2)), (3, 4), id="error: non-singleton dim"))
    out.append(case("Tensor.expand", u((3, 1)), (4,), id="error: fewer dims"))
    out.append(case("Tensor.expand", u((3, 1)), (-1, -1, 4), id="error: -1 for a new leading dim"))
    out.append(case("Tensor.expand", tr(u((1, 3))), (3, 5), id="of a transposed view"))
    out.append(case("Tensor.expand", u((3, 1)), (3, 4), id="grad", grad=True))
    out.append(case("Tensor.expand", u((3,)), (2, 4, 3), id="grad new dims", grad=True))
    out.append(case("Tensor.expand", Big((1024, 1), seed=1414), (1024, 1024), id="1M", grad=True))
    return out


@golden("expand_as")
def _expand_as():
    out = []
    for sa, sb in [((3, 1), (3, 4)), ((1,), (5,)), ((3, 1), (2, 3, 4)), ((), (2, 3)), ((1, 1), (0, 3))]:
        out.append(case("Tensor.expand_as", u(sa), u(sb), id=f"{sa} as {sb}"))
    out.append(case("Tensor.expand_as", ints((3, 1)), u((3, 4)), id="int64 as float"))
    out.append(case("Tensor.expand_as", u((3, 2)), u((3, 4)), id="error: non-singleton dim"))
    out.append(case("Tensor.expand_as", u((3, 1)), u((3, 4)), id="grad", grad=True))
    out.append(case("Tensor.expand_as", u((4,)), tr(u((4, 3))), id="grad other transposed", grad=True))
    out.append(case("Tensor.expand_as", V(u((1, 3)), ("t",)), u((2, 3, 4)), id="grad transposed self", grad=True))
    out.append(case("Tensor.expand_as", Big((1, 1024), seed=1415), Big((1024, 1024), seed=1416), id="1M"))
    return out


@golden("repeat")
def _repeat():
    out = []
    for shape, reps in [((2, 3), (2, 2)), ((2, 3), (1, 1)), ((3,), (2,)), ((3,), (2, 3)), ((2, 3), (2, 1, 2)),
                        ((), (3,)), ((), (2, 2)), ((2, 3), (0, 2)), ((0, 2), (2, 2))]:
        out.append(case("Tensor.repeat", u(shape), reps, id=f"{shape} {reps}"))
    out.append(case("Tensor.repeat", u((2, 3)), 2, 3, id="varargs"))
    out.append(case("Tensor.repeat", ints((2, 3)), (2, 1), id="int64"))
    out.append(case("Tensor.repeat", bools((2,)), (3,), id="bool"))
    out.append(case("Tensor.repeat", u((2, 3)), (2,), id="error: fewer reps than dims"))
    out.append(case("Tensor.repeat", u((2, 3)), (-1, 2), id="error: negative reps"))
    out.append(case("Tensor.repeat", tr(u((3, 2))), (2, 2), id="transposed"))
    out.append(case("Tensor.repeat", u((2, 3)), (2, 2), id="grad", grad=True))
    out.append(case("Tensor.repeat", u((3,)), (2, 1, 2), id="grad new dims", grad=True))
    out.append(case("Tensor.repeat", tr(u((3, 2))), (3, 1), id="grad transposed", grad=True))
    out.append(case("Tensor.repeat", Big((256, 256), seed=1417), (4, 4), id="1M", grad=True))
    return out


@golden("tile")
def _tile():
    out = []
    for shape, reps in [((2, 3), (2, 2)), ((2, 3), (2,)), ((3,), (2, 3)), ((2, 3), (1, 2, 1)), ((), (3,)),
                        ((2, 3), (0,)), ((2, 3), ())]:
        out.append(case("tile", u(shape), reps, id=f"{shape} {reps}"))
    out.append(case("Tensor.tile", u((2, 3)), (2, 1), id="method"))
    out.append(case("Tensor.tile", u((2, 3)), 2, 2, id="method varargs"))
    out.append(case("tile", ints((2, 3)), (2, 1), id="int64"))
    out.append(case("tile", tr(u((3, 2))), (2,), id="transposed"))
    out.append(case("tile", u((2, 3)), (2, 2), id="grad", grad=True))
    out.append(case("tile", u((3,)), (2, 2), id="grad new dims", grad=True))
    out.append(case("tile", tr(u((3, 2))), (2, 3), id="grad transposed", grad=True))
    out.append(case("tile", Big((512, 512), seed=1418), (2, 2), id="1M"))
    return out


@golden("flip")
def _flip():
    out = []
    for shape, dims in [((5,), (0,)), ((3, 4), (0,)), ((3, 4), (1,)), ((3, 4), (0, 1)), ((2, 3, 4), (-1,)),
                        ((2, 3, 4), (0, 2)), ((2, 3, 4), ()), ((), (0,)), ((0, 3), (0,))]:
        out.append(case("flip", u(shape), dims, id=f"{shape} {dims}"))
    out.append(case("flip", u((3, 4)), [1], id="dims as a list"))
    out.append(case("Tensor.flip", u((3, 4)), 0, 1, id="method varargs"))
    out.append(case("Tensor.flip", u((3, 4)), (1,), id="method tuple"))
    out.append(case("flip", ints((3, 4)), (0,), id="int64"))
    out.append(case("flip", bools((5,)), (0,), id="bool"))
    out.append(case("flip", u((3, 4)), (2,), id="error: dim out of range"))
    out.append(case("flip", u((3, 4)), (0, 0), id="error: repeated dim"))
    out.append(case("flip", tr(u((4, 3))), (0,), id="transposed"))
    out.append(case("flip", strided(u((3, 8))), (1,), id="strided"))
    out.append(case("flip", u((3, 4)), (0, 1), id="grad", grad=True))
    out.append(case("flip", tr(u((4, 3))), (1,), id="grad transposed", grad=True))
    out.append(case("flip", Big((1024, 1024), seed=1419), (0, 1), id="1M", grad=True))
    return out


@golden("roll")
def _roll():
    out = []
    for shape, shifts, dims in [((5,), 2, 0), ((5,), -1, 0), ((5,), 7, 0), ((3, 4), 1, 0), ((3, 4), -5, 1),
                                ((3, 4), (1, 2), (0, 1)), ((2, 3, 4), 2, -1), ((3, 4), 0, 1), ((0, 3), 1, 0)]:
        out.append(case("roll", u(shape), shifts, dims, id=f"{shape} shifts={shifts} dims={dims}"))
    out.append(case("roll", u((3, 4)), 5, id="no dims (flattened)"))
    out.append(case("roll", u(()), 1, id="0-d no dims"))
    out.append(case("roll", u(()), 1, 0, id="error: 0-d with dims"))
    out.append(case("roll", u((3, 4)), shifts=-2, id="no dims negative"))
    out.append(case("roll", u((3, 4)), shifts=(1,), dims=(1,), id="tuples kwargs"))
    out.append(case("Tensor.roll", u((3, 4)), 1, 1, id="method"))
    out.append(case("roll", ints((3, 4)), 1, 0, id="int64"))
    out.append(case("roll", u((3, 4)), (1, 2), (0,), id="error: shifts and dims lengths differ"))
    out.append(case("roll", u((3, 4)), 1, 2, id="error: dim out of range"))
    out.append(case("roll", tr(u((4, 3))), 1, 0, id="transposed"))
    out.append(case("roll", u((3, 4)), (1, -1), (0, 1), id="grad", grad=True))
    out.append(case("roll", tr(u((4, 3))), 2, id="grad transposed flattened", grad=True))
    out.append(case("roll", Big((1024, 1024), seed=1420), (3, -7), (0, 1), id="1M", grad=True))
    return out


@golden("narrow")
def _narrow():
    out = []
    for shape, dim, start, length in [((5,), 0, 1, 3), ((3, 6), 1, 2, 3), ((3, 6), 0, 0, 3), ((3, 6), -1, -4, 2),
                                      ((3, 6), 1, 6, 0), ((2, 3, 4), 2, 1, 2), ((3, 6), 1, 0, 0)]:
        out.append(case("narrow", u(shape), dim, start, length, id=f"{shape} {dim} {start} {length}"))
    out.append(case("Tensor.narrow", u((3, 6)), 1, 1, 4, id="method"))
    out.append(case("narrow", ints((3, 6)), 1, 1, 2, id="int64"))
    out.append(case("narrow", u((3, 6)), 1, 4, 3, id="error: past the end"))
    out.append(case("narrow", u((3, 6)), 2, 0, 1, id="error: dim out of range"))
    out.append(case("narrow", u((3, 6)), 1, 0, -1, id="error: negative length"))
    out.append(case("narrow", tr(u((6, 3))), 0, 1, 2, id="transposed"))
    out.append(case("narrow", u((3, 6)), 1, 2, 3, id="grad", grad=True))
    out.append(case("narrow", tr(u((6, 3))), 1, 1, 3, id="grad transposed", grad=True))
    out.append(case("narrow", Big((1024, 1024), seed=1421), 1, 100, 700, id="1M", grad=True))
    return out


@golden("select")
def _select():
    out = []
    for shape, dim, index in [((5,), 0, 2), ((3, 4), 0, 1), ((3, 4), 1, -1), ((2, 3, 4), 1, 2), ((2, 3, 4), -1, 0),
                              ((0, 3), 1, 2)]:
        out.append(case("select", u(shape), dim, index, id=f"{shape} dim={dim} index={index}"))
    out.append(case("Tensor.select", u((3, 4)), 1, 2, id="method"))
    out.append(case("select", ints((3, 4)), 0, 2, id="int64"))
    out.append(case("select", u((3, 4)), 0, 3, id="error: index out of range"))
    out.append(case("select", u((3, 4)), 0, -4, id="error: negative index out of range"))
    out.append(case("select", u((3, 4)), 2, 0, id="error: dim out of range"))
    out.append(case("select", u(()), 0, 0, id="error: 0-d"))
    out.append(case("select", tr(u((4, 3))), 0, 1, id="transposed"))
    out.append(case("select", u((3, 4)), 1, 2, id="grad", grad=True))
    out.append(case("select", tr(u((4, 3))), 1, -1, id="grad transposed", grad=True))
    out.append(case("select", Big((4, 1024, 1024), seed=1422), 0, 2, id="1M of 4M", grad=True))
    return out


@golden("chunk")
def _chunk():
    out = []
    for shape, chunks, dim in [((6,), 3, 0), ((7,), 3, 0), ((5,), 5, 0), ((5,), 8, 0), ((4, 6), 2, 1), ((4, 6), 4, 1),
                               ((4, 6), 3, 0), ((2, 3, 4), 2, -1), ((0, 4), 2, 0), ((3,), 1, 0), ((6, 4), 4, 0)]:
        out.append(case("chunk", u(shape), chunks, dim, id=f"{shape} chunks={chunks} dim={dim}"))
    out.append(case("chunk", u((6,)), 2, id="default dim"))
    out.append(case("Tensor.chunk", u((4, 6)), 3, dim=1, id="method"))
    out.append(case("chunk", ints((6, 2)), 3, 0, id="int64"))
    out.append(case("chunk", u((6,)), 0, 0, id="error: zero chunks"))
    out.append(case("chunk", u((6,)), 2, 1, id="error: dim out of range"))
    out.append(case("chunk", tr(u((6, 4))), 2, 0, id="transposed"))
    out.append(case("chunk", u((7, 3)), 3, 0, id="grad", grad=True))
    out.append(case("chunk", tr(u((6, 4))), 3, 1, id="grad transposed", grad=True))
    out.append(case("chunk", u((7,)), 3, id="grad uneven 1-D", grad=True))
    out.append(case("chunk", Big((1024, 1024), seed=1423), 3, 1, id="1M"))
    return out


@golden("split")
def _split():
    out = []
    for shape, ss, dim in [((6,), 2, 0), ((7,), 3, 0), ((7,), 10, 0), ((4, 6), 4, 1), ((4, 6), [1, 2, 3], 1),
                           ((4, 6), [2, 2], 0), ((4, 6), [0, 6], 1), ((4, 6), (3, 1), 0), ((2, 3, 4), [1, 3], -1),
                           ((0, 4), 2, 0), ((5,), [5], 0)]:
        out.append(case("split", u(shape), ss, dim, id=f"{shape} {ss} dim={dim}"))
    out.append(case("split", u((6,)), 4, id="default dim"))
    out.append(case("Tensor.split", u((4, 6)), 2, dim=1, id="method"))
    out.append(case("Tensor.split", u((4, 6)), [1, 3], id="method sections"))
    out.append(case("split", ints((6, 2)), [2, 4], 0, id="int64"))
    out.append(case("split", u((4, 6)), [1, 2], 1, id="error: sections do not add up"))
    out.append(case("split", u((4, 6)), 2, 2, id="error: dim out of range"))
    out.append(case("split", u((4, 6)), 0, 1, id="error: zero split size"))
    out.append(case("split", tr(u((6, 4))), [1, 3], 0, id="transposed"))
    out.append(case("split", u((7, 3)), 3, 0, id="grad", grad=True))
    out.append(case("split", u((4, 6)), [1, 2, 3], 1, id="grad sections", grad=True))
    out.append(case("split", tr(u((6, 4))), [4, 2], 1, id="grad transposed", grad=True))
    out.append(case("split", Big((1024, 1024), seed=1424), [100, 500, 424], 0, id="1M"))
    return out


@golden("unbind")
def _unbind():
    out = []
    for shape, dim in [((3, 4), 0), ((3, 4), 1), ((2, 3, 4), -1), ((5,), 0), ((0, 3), 1), ((3, 0), 0)]:
        out.append(case("unbind", u(shape), dim, id=f"{shape} dim={dim}"))
    out.append(case("unbind", u((3, 4)), id="default dim"))
    out.append(case("Tensor.unbind", u((3, 4)), 1, id="method"))
    out.append(case("unbind", ints((2, 3)), 0, id="int64"))
    out.append(case("unbind", u((3, 4)), 2, id="error: dim out of range"))
    out.append(case("unbind", u(()), 0, id="error: 0-d"))
    out.append(case("unbind", tr(u((4, 3))), 0, id="transposed"))
    out.append(case("unbind", u((3, 4)), 1, id="grad", grad=True))
    out.append(case("unbind", tr(u((4, 3))), 0, id="grad transposed", grad=True))
    out.append(case("unbind", u((2, 3, 4)), -1, id="grad 3-D dim -1", grad=True))
    out.append(case("unbind", Big((4, 512, 512), seed=1425), 0, id="1M"))
    return out


@golden("cat")
def _cat():
    out = []
    out.append(case("cat", [u((2, 3)), u((4, 3))], 0, id="grad dim 0", grad=True))
    out.append(case("cat", [tr(u((3, 2))), u((2, 5)), strided(u((2, 8)))], 1, id="grad transposed and strided",
                    grad=True))
    out.append(case("cat", [u((2, 3)), ints((2, 3))], 0, id="grad float with int64", grad=True))
    for shapes, dim in [([(2, 3), (4, 3)], 0), ([(2, 3), (2, 5)], 1), ([(2, 3), (2, 1), (2, 2)], -1),
                        ([(3,), (4,)], 0), ([(2, 3, 4), (2, 1, 4)], 1), ([(2, 3), (0, 3)], 0), ([(0, 3), (0, 3)], 0),
                        ([(2, 3)], 0), ([(1, 2, 3), (1, 2, 3), (1, 2, 3)], -3), ([(3, 1), (3, 1)], 1)]:
        out.append(case("cat", [u(s) for s in shapes], dim, id=f"{shapes} dim={dim}"))
    out.append(case("cat", (u((2, 3)), u((1, 3))), id="tuple, default dim"))
    out.append(case("cat", [u((2, 3)), u((1, 3))], dim=0, id="dim kwarg"))
    out.append(case("concat", [u((2, 3)), u((2, 1))], 1, id="concat alias"))
    out.append(case("concatenate", [u((2, 3)), u((2, 1))], 1, id="concatenate alias"))
    out.append(case("cat", [ints((2, 3)), ints((1, 3))], 0, id="int64"))
    out.append(case("cat", [u((2, 3)), ints((1, 3))], 0, id="float with int64 (promotes)"))
    out.append(case("cat", [ints((2, 3), dtype="int32"), ints((1, 3))], 0, id="int32 with int64 (promotes)"))
    out.append(case("cat", [bools((2, 3)), ints((1, 3))], 0, id="bool with int64 (promotes)"))
    out.append(case("cat", [u((2, 3)), np.zeros((0,), np.float32)], 0, id="legacy empty 1-D is skipped"))
    out.append(case("cat", [u((2, 3)), u((2, 4))], 0, id="error: shapes differ off the cat dim"))
    out.append(case("cat", [u((2, 3)), u((3,))], 0, id="error: ranks differ"))
    out.append(case("cat", [u((2, 3)), u((2, 3))], 2, id="error: dim out of range"))
    out.append(case("cat", [], 0, id="error: empty list"))
    out.append(case("cat", [u(()), u(())], 0, id="error: 0-d inputs"))
    out.append(case("cat", [tr(u((3, 2))), strided(u((2, 8)))], 1, id="transposed and strided"))
    out.append(case("cat", [V(u((2, 1)), ("expand", 2, 3)), u((2, 3))], 0, id="expanded"))
    out.append(case("cat", [Big((512, 1024), seed=1426), Big((512, 1024), seed=1427)], 0, id="1M dim 0"))
    out.append(case("cat", [Big((1024, 512), seed=1428), V(Big((512, 1024), seed=1429), ("t",))], 1,
                    id="1M dim 1 with a transposed part"))
    return out


@golden("stack")
def _stack():
    out = []
    for shapes, dim in [([(2, 3), (2, 3)], 0), ([(2, 3), (2, 3)], 1), ([(2, 3), (2, 3), (2, 3)], 2),
                        ([(2, 3), (2, 3)], -1), ([(2, 3), (2, 3)], -3), ([(), ()], 0), ([(3,)], 0),
                        ([(0, 2), (0, 2)], 1), ([(4,), (4,), (4,), (4,)], 1)]:
        out.append(case("stack", [u(s) for s in shapes], dim, id=f"{shapes} dim={dim}"))
    out.append(case("stack", (u((2, 3)), u((2, 3))), id="tuple, default dim"))
    out.append(case("stack", [u((2, 3)), u((2, 3))], dim=1, id="dim kwarg"))
    out.append(case("stack", [ints((2, 3)), ints((2, 3))], 0, id="int64"))
    out.append(case("stack", [u((2, 3)), ints((2, 3))], 0, id="float with int64 (promotes)"))
    out.append(case("stack", [u((2, 3)), u((3, 2))], 0, id="error: shapes differ"))
    out.append(case("stack", [u((2, 3)), u((2, 3))], 3, id="error: dim out of range"))
    out.append(case("stack", [], 0, id="error: empty list"))
    out.append(case("stack", [tr(u((3, 2))), strided(u((2, 6)))], 1, id="transposed and strided"))
    out.append(case("stack", [Big((1024, 512), seed=1430), Big((1024, 512), seed=1431)], 1, id="1M"))
    out.append(case("stack", [u((2, 3)), u((2, 3)), u((2, 3))], 1, id="grad dim 1", grad=True))
    out.append(case("stack", [tr(u((3, 2))), u((2, 3))], -1, id="grad transposed, last dim", grad=True))
    return out


@golden("contiguous")
def _contiguous():
    out = []
    out.append(case("Tensor.contiguous", u((3, 4)), id="already contiguous"))
    out.append(case("Tensor.contiguous", tr(u((4, 3))), id="transposed"))
    out.append(case("Tensor.contiguous", strided(u((3, 8))), id="strided"))
    out.append(case("Tensor.contiguous", V(u((3, 1)), ("expand", 3, 4)), id="expanded"))
    out.append(case("Tensor.contiguous", V(u((2, 3, 4)), ("permute", 2, 0, 1)), id="permuted"))
    out.append(case("Tensor.contiguous", V(u((5, 6)), ("__getitem__", (slice(1, 4), slice(2, 5)))), id="offset block"))
    out.append(case("Tensor.contiguous", V(u((6,)), ("flip", 0)), id="flipped"))
    out.append(case("Tensor.contiguous", V(ints((4, 3)), ("t",)), id="int64 transposed"))
    out.append(case("Tensor.contiguous", V(bools((4, 3)), ("t",)), id="bool transposed"))
    out.append(case("Tensor.contiguous", u(()), id="0-d"))
    out.append(case("Tensor.contiguous", V(u((0, 3)), ("t",)), id="empty transposed"))
    out.append(case("Tensor.contiguous", tr(u((4, 3))), id="grad transposed", grad=True))
    out.append(case("Tensor.contiguous", u((3, 4)), id="grad", grad=True))
    out.append(case("Tensor.contiguous", V(Big((1024, 1024), seed=1432), ("t",)), id="1M transposed", grad=True))
    out.append(case("Tensor.contiguous", V(Big((64, 128, 128), seed=1433), ("permute", 2, 0, 1)), id="1M permuted"))
    return out


@golden("clone")
def _clone():
    out = []
    for shape in [(3, 4), (), (0, 3), (7,)]:
        out.append(case("clone", u(shape), id=f"{shape}"))
    out.append(case("Tensor.clone", u((3, 4)), id="method"))
    out.append(case("clone", ints((3, 4)), id="int64"))
    out.append(case("clone", ints((3, 4), dtype="int32"), id="int32"))
    out.append(case("clone", bools((3, 4)), id="bool"))
    out.append(case("clone", SPECIAL.copy(), id="special values"))
    out.append(case("clone", tr(u((4, 3))), id="transposed"))
    out.append(case("clone", strided(u((3, 8))), id="strided"))
    out.append(case("clone", u((3, 4)), id="grad", grad=True))
    out.append(case("clone", tr(u((4, 3))), id="grad transposed", grad=True))
    out.append(case("clone", Big((1024, 1024), seed=1434), id="1M", grad=True))
    return out


# ---------------------------------------------------------------- indexing

@golden("getitem")
def _getitem():
    x = lambda: u((4, 5, 6))  # noqa: E731
    keys = [
        ("int", 1), ("negative int", -1), ("tuple of ints", (1, 2)), ("all ints", (3, -1, 0)),
        ("slice", slice(1, 3)), ("slice with step", slice(None, None, 2)), ("slice negative start", slice(-3, None)),
        ("slice step 3 offset", slice(1, None, 3)), ("slice past the end", slice(2, 100)),
        ("empty slice", slice(3, 1)), ("2-D slices", (slice(1, 3), slice(None, None, 2))),
        ("slices all dims", (slice(None, None, 2), slice(1, 4), slice(0, 6, 4))),
        ("None", None), ("None in the middle", (slice(None), None, 1)), ("Ellipsis", Ellipsis),
        ("Ellipsis then int", (Ellipsis, 2)), ("int then Ellipsis", (0, Ellipsis)),
        ("Ellipsis in the middle", (1, Ellipsis, 3)), ("Ellipsis and None", (Ellipsis, None)),
        ("int and slice", (2, slice(1, None))), ("index tensor", idx([0, 2, 3])),
        ("index tensor with repeats", idx([1, 1, 0, 3])), ("negative index tensor", idx([-1, 0, -4])),
        ("2-D index tensor", idx([[0, 1], [3, 2]])), ("0-d index tensor", idx(2)),
        ("empty index tensor", idx([])), ("list", [0, 3]), ("list of negative ints", [-1, -2]),
        ("index tensor on dim 1", (slice(None), idx([4, 0, 2]))),
        ("index tensor with slices", (idx([1, 3]), slice(None), slice(1, 3))),
        ("two index tensors", (idx([0, 1, 3]), idx([4, 0, 2]))),
        ("two index tensors broadcast", (idx([[0], [3]]), idx([1, 2, 4]))),
        ("separated index tensors (dims moved first)", (idx([0, 2]), slice(None), idx([1, 5]))),
        ("index tensors with int", (1, idx([0, 2]), idx([5, 3]))),
        ("index tensor Ellipsis", (Ellipsis, idx([5, 0]))),
        ("index tensor and None", (None, idx([1, 2]))),
        ("bool mask first dim", np.array([True, False, True, True])),
        ("bool mask all dims", bools((4, 5, 6))),
        ("bool mask two dims", bools((4, 5))),
        ("bool mask on dim 1", (slice(None), np.array([False, True, True, False, True]))),
        ("all-false mask", np.zeros(4, bool)),
        ("int and mask", (2, np.array([True, False, True, False, True]))),
        ("True scalar", True), ("False scalar", False),
        ("range and list (x[range(n), y])", (range(4), [0, 2, 1, 4])), ("range with step", range(0, 4, 2)),
        ("range on dim 1", (slice(None), range(1, 5, 3))), ("nested tuple", ((0, 3),)),
    ]
    out = []
    for name, key in keys:
        out.append(case("Tensor.__getitem__", x(), key, id=name))
    out.append(case("Tensor.__getitem__", u((5,)), 2, id="1-D int (0-d result)"))
    out.append(case("Tensor.__getitem__", u(()), (), id="0-d with ()"))
    out.append(case("Tensor.__getitem__", u(()), None, id="0-d with None"))
    out.append(case("Tensor.__getitem__", u(()), Ellipsis, id="0-d with Ellipsis"))
    out.append(case("Tensor.__getitem__", u(()), np.array(True), id="0-d with bool mask"))
    out.append(case("Tensor.__getitem__", ints((4, 5)), (idx([0, 2]), slice(1, 4)), id="int64 tensor"))
    out.append(case("Tensor.__getitem__", bools((4, 5)), (slice(None), 2), id="bool tensor"))
    out.append(case("Tensor.__getitem__", tr(u((6, 5, 4))), (slice(1, 3), idx([0, 4])), id="transposed"))
    out.append(case("Tensor.__getitem__", strided(u((4, 10))), (Ellipsis, slice(None, None, 2)),
                    id="strided of strided"))
    out.append(case("Tensor.__getitem__", V(u((4, 1)), ("expand", 4, 5)), idx([1, 3]), id="expanded"))
    out.append(case("Tensor.__getitem__", u((0, 3)), slice(None), id="empty tensor"))
    # errors
    out.append(case("Tensor.__getitem__", x(), 4, id="error: int out of range"))
    out.append(case("Tensor.__getitem__", x(), -5, id="error: negative int out of range"))
    out.append(case("Tensor.__getitem__", x(), (0, 0, 0, 0), id="error: too many indices"))
    out.append(case("Tensor.__getitem__", x(), idx([0, 4]), id="error: index tensor out of range"))
    out.append(case("Tensor.__getitem__", x(), idx([-5]), id="error: negative index tensor out of range"))
    out.append(case("Tensor.__getitem__", x(), (slice(None), idx([5])), id="error: index tensor out of range dim 1"))
    out.append(case("Tensor.__getitem__", x(), np.array([True, False]), id="error: mask shape mismatch"))
    out.append(case("Tensor.__getitem__", x(), (idx([0, 1]), idx([0, 1, 2])),
                    id="error: index tensors not broadcastable"))
    out.append(case("Tensor.__getitem__", x(), slice(None, None, -1), id="error: negative step"))
    out.append(case("Tensor.__getitem__", x(), uniform((2,)), id="error: float index tensor"))
    # gradients
    for name, key in [("int", 1), ("slices", (slice(1, 3), slice(None, None, 2))),
                      ("None and Ellipsis", (None, Ellipsis, 1)),
                      ("index tensor with repeats", idx([1, 1, 0, 3, 1])),
                      ("index tensor with slices", (idx([1, 3]), slice(None), slice(1, 3))),
                      ("two index tensors", (idx([0, 1, 3]), idx([4, 0, 2]))), ("bool mask", bools((4, 5))),
                      ("index tensor on dim 1", (slice(None), idx([4, 0, 4]))), ("list", [2, 0]),
                      ("range and list", (range(4), [0, 2, 1, 4]))]:
        out.append(case("Tensor.__getitem__", x(), key, id=f"grad {name}", grad=True))
    out.append(case("Tensor.__getitem__", tr(u((6, 5, 4))), (idx([3, 0]), 2), id="grad transposed", grad=True))
    # large
    out.append(case("Tensor.__getitem__", Big((2048, 1024), seed=1440), (slice(None, None, 2), slice(None)),
                    id="1M every second row"))
    out.append(case("Tensor.__getitem__", Big((1024, 1024), seed=1441),
                    V(Big((1024,), "int64", seed=1442), ("add", 50)), id="index tensor of 1024 rows"))
    out.append(case("Tensor.__getitem__", Big((1024, 1024), seed=1443), Big((1024, 1024), "bool", seed=1444),
                    id="1M bool mask"))
    out.append(case("Tensor.__getitem__", Big((1024, 1024), seed=1445), (slice(1, None, 3), idx([5, 1000, 3])),
                    id="1M grad slice and index", grad=True))
    return out


def _setitem_cases():
    x = lambda: u((4, 5))  # noqa: E731
    out = []
    for name, key, value in [
            ("int, scalar", 1, 2.5), ("negative int, scalar", -1, -1.0), ("two ints", (2, 3), 7.0),
            ("slice, scalar", slice(1, 3), 0.0), ("step slice, scalar", (slice(None), slice(None, None, 2)), 9.0),
            ("Ellipsis, scalar", (Ellipsis, 0), 3.0), ("None, scalar", (None, 1), 4.0),
            ("row, tensor", 2, u((5,))), ("row, broadcast tensor", 2, u((1,))),
            ("column, tensor", (slice(None), 1), u((4,))), ("block, tensor", (slice(1, 3), slice(2, 5)), u((2, 3))),
            ("block, broadcast row", (slice(1, 3), slice(2, 5)), u((3,))),
            ("block, 0-d tensor", (slice(1, 3), slice(2, 5)), np.array(5.0, np.float32)),
            ("all, tensor", Ellipsis, u((4, 5))), ("all, column", slice(None), u((4, 1))),
            ("index tensor rows", idx([0, 3]), u((2, 5))), ("index tensor, scalar", idx([2, 0]), -2.0),
            ("negative index tensor", idx([-1]), u((1, 5))),
            ("two index tensors", (idx([0, 1, 3]), idx([4, 0, 2])), u((3,))),
            ("index tensor with slice", (idx([1, 3]), slice(1, 3)), u((2, 2))), ("list", [1, 2], 0.5),
            ("bool mask, scalar", bools((4, 5)), -9.0),
            ("bool mask rows, tensor", np.array([True, False, True, False]), u((5,))),
            ("bool mask, -inf", bools((4, 5)), float("-inf")), ("bool mask, nan", bools((4, 5)), float("nan")),
            ("empty slice", slice(2, 2), 1.0), ("range and list", (range(2), [4, 0]), u((2,)))]:
        out.append(case("_setitem", x(), key, value, id=name))
    out.append(case("_setitem", ints((4, 5)), (slice(None), 2), 7, id="int64, int scalar"))
    out.append(case("_setitem", ints((4, 5)), 1, 2.7, id="int64, float scalar (truncates)"))
    out.append(case("_setitem", ints((4, 5)), 1, u((5,)), id="int64, float tensor (casts)"))
    out.append(case("_setitem", u((4, 5)), 1, ints((5,)), id="float, int64 tensor"))
    out.append(case("_setitem", bools((4, 5)), 0, True, id="bool"))
    out.append(case("_setitem", u(()), (), 3.0, id="0-d"))
    out.append(case("_setitem", u(()), Ellipsis, u(()), id="0-d Ellipsis tensor"))
    out.append(case("_setitem", tr(u((5, 4))), 1, u((5,)), id="transposed target"))
    out.append(case("_setitem", x(), 1, tr(u((5, 1))), id="transposed value"))
    out.append(case("_setitem", x(), 4, 1.0, id="error: int out of range"))
    out.append(case("_setitem", x(), idx([0, 4]), 1.0, id="error: index tensor out of range"))
    out.append(case("_setitem", x(), 1, u((4,)), id="error: value not broadcastable"))
    out.append(case("_setitem", x(), (slice(1, 3),), u((3, 5)), id="error: value shape mismatch"))
    # gradients (for the target and the value)
    out.append(case("_setitem", x(), 1, u((5,)), id="grad row", grad=True))
    out.append(case("_setitem", x(), (slice(1, 3), slice(2, 5)), u((3,)), id="grad block broadcast", grad=True))
    out.append(case("_setitem", x(), idx([0, 3]), u((2, 5)), id="grad index tensor", grad=True))
    out.append(case("_setitem", x(), bools((4, 5)), 0.0, id="grad bool mask scalar", grad=True))
    out.append(case("_setitem", x(), (slice(None), slice(None, None, 2)), np.array(1.5, np.float32),
                    id="grad 0-d value", grad=True))
    out.append(case("_setitem", tr(u((5, 4))), (slice(None), 1), u((4,)), id="grad transposed target", grad=True))
    # large
    out.append(case("_setitem", Big((1024, 1024), seed=1450), (slice(None), slice(None, None, 2)), 0.0,
                    id="1M every second column"))
    out.append(case("_setitem", Big((1024, 1024), seed=1451), Big((1024, 1024), "bool", seed=1452),
                    -1.0, id="1M bool mask"))
    out.append(case("_setitem", Big((1024, 1024), seed=1454), slice(100, 900), Big((800, 1024), seed=1455),
                    id="1M rows from a tensor", grad=True))
    return out


golden("setitem")(_setitem_cases)


@golden("gather")
def _gather():
    out = []
    x = u((3, 4))
    for xs, dim, ix in [((3, 4), 1, ints((3, 2), 0, 3)), ((3, 4), 0, ints((2, 4), 0, 2)),
                        ((3, 4), 1, ints((2, 2), 0, 3)), ((3, 4), -1, ints((3, 6), 0, 3)), ((5,), 0, ints((8,), 0, 4)),
                        ((2, 3, 4), 1, ints((2, 5, 4), 0, 2)),
                        ((2, 3, 4), 2, ints((1, 2, 3), 0, 3)), ((3, 4), 1, np.zeros((3, 0), np.int64)),
                        ((3, 4), 0, ints((1, 1), 0, 2))]:
        out.append(case("gather", u(xs), dim, ix, id=f"{xs} dim={dim} index {ix.shape}"))
    out.append(case("gather", u(()), 0, idx(0), id="0-d"))
    out.append(case("gather", x, 1, idx([[-1, 0]] * 3), id="error: negative index"))
    out.append(case("Tensor.gather", u((3, 4)), 1, ints((3, 2), 0, 3), id="method"))
    out.append(case("gather", ints((3, 4)), 1, ints((3, 2), 0, 3), id="int64 input"))
    out.append(case("gather", bools((3, 4)), 0, ints((2, 4), 0, 2), id="bool input"))
    out.append(case("gather", u((3, 4)), 1, ints((3, 2), 0, 3, "int32"), id="int32 index"))
    out.append(case("gather", u((3, 4)), 1, idx([[0, 4]] * 3), id="error: index out of range"))
    out.append(case("gather", u((3, 4)), 2, ints((3, 2), 0, 3), id="error: dim out of range"))
    out.append(case("gather", u((3, 4)), 1, ints((4, 2), 0, 3), id="error: index larger off dim"))
    out.append(case("gather", u((3, 4)), 1, ints((3,), 0, 3), id="error: index rank differs"))
    out.append(case("gather", tr(u((4, 3))), 1, ints((3, 2), 0, 3), id="transposed input"))
    out.append(case("gather", u((3, 4)), 0, V(ints((4, 3), 0, 2), ("t",)), id="transposed index"))
    out.append(case("gather", u((3, 4)), 1, ints((3, 5), 0, 3), id="grad repeated indices", grad=True))
    out.append(case("gather", u((2, 3, 4)), 0, ints((2, 3, 4), 0, 1), id="grad 3-D dim 0", grad=True))
    out.append(case("gather", tr(u((4, 3))), 1, ints((2, 2), 0, 3), id="grad transposed", grad=True))
    big_idx = V(Big((1024, 1024), "int64", seed=1461), ("add", 50))
    out.append(case("gather", Big((1024, 1024), seed=1460), 1, big_idx, id="1M dim 1"))
    out.append(case("gather", Big((1024, 1024), seed=1462), 0, big_idx, id="1M dim 0 grad", grad=True))
    return out


@golden("scatter")
def _scatter():
    out = []
    for xs, dim, ishape, ss in [((3, 5), 1, (3, 2), (3, 2)), ((3, 5), 0, (2, 5), (2, 5)), ((3, 5), 1, (2, 3), (3, 4)),
                                ((5,), 0, (3,), (4,)), ((2, 3, 4), 2, (2, 3, 4), (2, 3, 4)),
                                ((2, 3, 4), 1, (2, 2, 3), (2, 3, 4)),
                                ((3, 5), -1, (3, 5), (3, 5)), ((3, 5), 1, (3, 0), (3, 2))]:
        ix = perm_index(ishape, dim, xs[dim])
        out.append(case("scatter", u(xs), dim, ix, u(ss), id=f"{xs} dim={dim} index {ishape} src {ss}"))
    ix = perm_index((3, 2), 1, 5)
    out.append(case("scatter", u((3, 5)), 1, ix, 2.5, id="scalar value"))
    out.append(case("scatter", u((3, 5)), 1, ix, value=-1.0, id="value kwarg"))
    out.append(case("scatter", u((3, 5)), 1, ix, src=u((3, 2)), id="src kwarg"))
    out.append(case("Tensor.scatter", u((3, 5)), 1, ix, u((3, 2)), id="method"))
    out.append(case("Tensor.scatter_", u((3, 5)), 1, ix, u((3, 2)), id="in-place"))
    out.append(case("Tensor.scatter_", u((3, 5)), 1, ix, 7.0, id="in-place scalar"))
    out.append(case("scatter", ints((3, 5)), 1, ix, ints((3, 2)), id="int64"))
    out.append(case("scatter", ints((3, 5)), 1, ix, 3, id="int64 scalar"))
    out.append(case("scatter", u((3, 5)), 1, ix, ints((3, 2)), id="error: src dtype differs"))
    out.append(case("scatter", u((3, 5)), 1, idx([[0, 5]] * 3), u((3, 2)), id="error: index out of range"))
    out.append(case("scatter", u((3, 5)), 2, ix, u((3, 2)), id="error: dim out of range"))
    out.append(case("scatter", u((3, 5)), 1, ix, u((2, 2)), id="error: src smaller than index"))
    out.append(case("scatter", u((3, 5)), 1, ix.astype(np.int32), u((3, 2)), id="int32 index"))
    out.append(case("scatter", tr(u((5, 3))), 1, ix, tr(u((2, 3))), id="transposed input and src"))
    out.append(case("scatter", u((3, 5)), 1, ix, u((3, 2)), id="grad", grad=True))
    out.append(case("scatter", u((3, 5)), 1, ix, 0.5, id="grad scalar", grad=True))
    # (PyTorch's scatter backward needs src shaped like index)
    out.append(case("scatter", u((2, 3, 4)), 1, perm_index((2, 2, 3), 1, 3), u((2, 2, 3)), id="grad 3-D smaller index",
                    grad=True))
    out.append(case("Tensor.scatter_", nonleaf(u((3, 5))), 1, ix, u((3, 2)), id="grad in-place", grad=True))
    out.append(case("scatter", tr(u((5, 3))), 1, ix, u((3, 2)), id="grad transposed", grad=True))
    # a full permutation of each row: every position written once
    rows = np.stack([_rng.permutation(1024) for _ in range(4)]).astype(np.int64)
    out.append(case("scatter", Big((4, 1024), seed=1470), 1, rows, Big((4, 1024), seed=1471), id="4x1024 permutation"))
    out.append(case("scatter", Big((1024, 1024), seed=1472), 1, np.tile(idx(_rng.permutation(1024)[:4]), (1024, 1)),
                    1.0, id="1M scalar columns"))
    return out


@golden("scatter_add")
def _scatter_add():
    out = []
    for xs, dim, ishape, ss in [((3, 5), 1, (3, 4), (3, 4)), ((3, 5), 0, (6, 5), (6, 5)), ((3, 5), 1, (2, 3), (3, 4)),
                                ((5,), 0, (9,), (9,)), ((2, 3, 4), 2, (2, 3, 7), (2, 3, 7)),
                                ((3, 5), -1, (3, 0), (3, 2))]:
        ix = ints(ishape, 0, xs[dim] - 1)
        out.append(case("scatter_add", u(xs), dim, ix, u(ss), id=f"{xs} dim={dim} index {ishape} src {ss}"))
    ix = ints((3, 6), 0, 4)
    out.append(case("Tensor.scatter_add", u((3, 5)), 1, ix, u((3, 6)), id="method"))
    out.append(case("Tensor.scatter_add_", u((3, 5)), 1, ix, u((3, 6)), id="in-place"))
    out.append(case("scatter_add", ints((3, 5)), 1, ix, ints((3, 6)), id="int64"))
    out.append(case("scatter_add", np.zeros(4, np.float32), 0, idx([0, 0, 0, 3, 3]), np.ones(5, np.float32),
                    id="counting"))
    out.append(case("scatter_add", u((3, 5)), 1, ix, ints((3, 6)), id="error: src dtype differs"))
    out.append(case("scatter_add", u((3, 5)), 1, idx([[0, 5]] * 3), u((3, 2)), id="error: index out of range"))
    out.append(case("scatter_add", u((3, 5)), 2, ix, u((3, 6)), id="error: dim out of range"))
    out.append(case("scatter_add", tr(u((5, 3))), 1, ix, tr(u((6, 3))), id="transposed"))
    out.append(case("scatter_add", u((3, 5)), 1, ix, u((3, 6)), id="grad", grad=True))
    out.append(case("scatter_add", u((3, 5)), 0, ints((4, 5), 0, 2), u((4, 5)), id="grad more rows than input",
                    grad=True))
    out.append(case("Tensor.scatter_add_", nonleaf(u((3, 5))), 1, ix, u((3, 6)), id="grad in-place", grad=True))
    out.append(case("scatter_add", np.zeros(100, np.float32), 0, V(Big((1 << 20,), "int64", seed=1480), ("add", 50)),
                    Big((1 << 20,), seed=1481), id="1M into 100 bins"))
    out.append(case("scatter_add", Big((1024, 100), seed=1482), 1,
                    V(Big((1024, 1024), "int64", seed=1483), ("add", 50)), Big((1024, 1024), seed=1484),
                    id="1M rows into 100 bins", grad=True))
    return out


@golden("index_select")
def _index_select():
    out = []
    for xs, dim, ix in [((5, 3), 0, idx([0, 2, 4])), ((5, 3), 1, idx([2, 0])), ((5, 3), 0, idx([1, 1, 1, 0])),
                        ((5, 3), -1, idx([2])), ((2, 3, 4), 2, idx([3, 0, 1])), ((2, 3, 4), 1, idx([])),
                        ((6,), 0, idx([5, 0, 3])), ((5, 3), 0, idx(2)), ((0, 3), 1, idx([0, 2]))]:
        out.append(case("index_select", u(xs), dim, ix, id=f"{xs} dim={dim} index {ix.tolist()}"))
    out.append(case("Tensor.index_select", u((5, 3)), 0, idx([3, 1]), id="method"))
    out.append(case("index_select", ints((5, 3)), 1, idx([0, 2]), id="int64 input"))
    out.append(case("index_select", bools((5, 3)), 0, idx([0, 2]), id="bool input"))
    out.append(case("index_select", u((5, 3)), 0, idx([0, 2]).astype(np.int32), id="int32 index"))
    out.append(case("index_select", u((5, 3)), 0, idx([0, 5]), id="error: index out of range"))
    out.append(case("index_select", u((5, 3)), 0, idx([-1]), id="error: negative index"))
    out.append(case("index_select", u((5, 3)), 2, idx([0]), id="error: dim out of range"))
    out.append(case("index_select", u((5, 3)), 0, idx([[0, 1]]), id="error: 2-D index"))
    out.append(case("index_select", u((5, 3)), 0, uniform((2,)), id="error: float index"))
    out.append(case("index_select", tr(u((3, 5))), 0, idx([4, 0]), id="transposed"))
    out.append(case("index_select", u((5, 3)), 0, strided(idx([9, 0, 9, 3, 9, 1])), id="strided index"))
    out.append(case("index_select", u((5, 3)), 0, idx([0, 2, 2, 4]), id="grad repeated", grad=True))
    out.append(case("index_select", u((2, 3, 4)), 2, idx([3, 0, 3]), id="grad dim 2", grad=True))
    out.append(case("index_select", tr(u((3, 5))), 1, idx([1, 0]), id="grad transposed", grad=True))
    out.append(case("index_select", Big((1024, 1024), seed=1490), 0, V(Big((2048,), "int64", seed=1491), ("add", 50)),
                    id="2M from 1M rows"))
    out.append(case("index_select", Big((1024, 1024), seed=1492), 1, V(Big((1024,), "int64", seed=1493), ("add", 50)),
                    id="1M columns grad", grad=True))
    return out


@golden("index_add")
def _index_add():
    out = []
    for xs, dim, ix, ss in [((5, 3), 0, idx([0, 2, 4]), (3, 3)), ((5, 3), 1, idx([2, 0]), (5, 2)),
                            ((5, 3), 0, idx([1, 1, 1, 0]), (4, 3)), ((2, 3, 4), 2, idx([3, 0, 3]), (2, 3, 3)),
                            ((6,), 0, idx([5, 0, 5]), (3,)), ((5, 3), 0, idx([]), (0, 3)),
                            ((5, 3), -1, idx([1]), (5, 1))]:
        out.append(case("index_add", u(xs), dim, ix, u(ss), id=f"{xs} dim={dim} index {ix.tolist()}"))
    out.append(case("index_add", u((5, 3)), 0, idx([0, 4]), u((2, 3)), alpha=2.0, id="alpha"))
    out.append(case("index_add", ints((5, 3)), 0, idx([0, 4, 0]), ints((3, 3)), alpha=3, id="int64 alpha"))
    out.append(case("Tensor.index_add", u((5, 3)), 1, idx([2]), u((5, 1)), id="method"))
    out.append(case("Tensor.index_add_", u((5, 3)), 0, idx([1, 3]), u((2, 3)), id="in-place"))
    out.append(case("Tensor.index_add_", u((5, 3)), 0, idx([1, 1]), u((2, 3)), alpha=-1.0, id="in-place alpha"))
    out.append(case("index_add", u((5, 3)), 0, idx([0, 5]), u((2, 3)), id="error: index out of range"))
    out.append(case("index_add", u((5, 3)), 0, idx([0, 1]), u((3, 3)), id="error: source size differs"))
    out.append(case("index_add", u((5, 3)), 0, idx([0, 1]), ints((2, 3)), id="error: source dtype differs"))
    out.append(case("index_add", u((5, 3)), 2, idx([0]), u((5, 3)), id="error: dim out of range"))
    out.append(case("index_add", tr(u((3, 5))), 0, idx([4, 0]), tr(u((3, 2))), id="transposed"))
    out.append(case("index_add", u((5, 3)), 0, idx([0, 2, 2]), u((3, 3)), id="grad", grad=True))
    out.append(case("index_add", u((5, 3)), 1, idx([1, 1]), u((5, 2)), alpha=0.5, id="grad alpha", grad=True))
    out.append(case("Tensor.index_add_", nonleaf(u((5, 3))), 0, idx([4]), u((1, 3)), id="grad in-place", grad=True))
    out.append(case("index_add", Big((1024, 1024), seed=1500), 0, V(Big((512,), "int64", seed=1501), ("add", 50)),
                    Big((512, 1024), seed=1502), id="1M grad", grad=True))
    return out


@golden("masked_fill")
def _masked_fill():
    out = []
    for xs, ms, v in [((3, 4), (3, 4), 0.0), ((3, 4), (3, 4), -1.5), ((3, 4), (4,), 2.0), ((3, 4), (3, 1), 9.0),
                      ((2, 3, 4), (3, 4), float("-inf")), ((3, 4), (), 5.0), ((3, 4), (3, 4), float("nan")),
                      ((0, 4), (4,), 1.0), ((), (), 2.0), ((3, 4), (3, 4), 7)]:
        out.append(case("masked_fill", u(xs), bools(ms), v, id=f"{xs} mask {ms} value {v!r}"))
    out.append(case("masked_fill", u((3, 4)), bools((3, 4)), np.array(3.5, np.float32), id="0-d tensor value"))
    out.append(case("Tensor.masked_fill", u((3, 4)), bools((3, 4)), 1.0, id="method"))
    out.append(case("Tensor.masked_fill_", u((3, 4)), bools((4,)), -2.0, id="in-place"))
    out.append(case("masked_fill", ints((3, 4)), bools((3, 4)), 7, id="int64 int value"))
    out.append(case("masked_fill", ints((3, 4)), bools((3, 4)), 2.7, id="int64 float value (probe)"))
    out.append(case("masked_fill", bools((3, 4)), bools((3, 4)), True, id="bool"))
    out.append(case("masked_fill", u((3, 4)), ints((3, 4), 0, 1), 1.0, id="error: int64 mask"))
    out.append(case("masked_fill", u((3, 4)), bools((2, 4)), 1.0, id="error: mask not broadcastable"))
    out.append(case("masked_fill", u((3, 4)), bools((3, 4)), u((2,)), id="error: 1-D tensor value"))
    out.append(case("Tensor.masked_fill_", u((3, 1)), bools((3, 4)), 1.0, id="error: in-place result would broadcast"))
    out.append(case("masked_fill", u((3, 4)), bools((2, 3, 4)), 1.0, id="mask broadcasts the input"))
    out.append(case("masked_fill", tr(u((4, 3))), V(bools((4, 3)), ("t",)), 0.0, id="transposed"))
    out.append(case("masked_fill", u((3, 4)), bools((3, 4)), 0.0, id="grad", grad=True))
    out.append(case("masked_fill", u((3, 4)), bools((4,)), float("-inf"), id="grad broadcast mask", grad=True))
    out.append(case("masked_fill", u((3, 4)), bools((3, 4)), np.array(2.0, np.float32), id="grad 0-d tensor value",
                    grad=True))
    out.append(case("Tensor.masked_fill_", nonleaf(u((3, 4))), bools((3, 4)), 1.0, id="grad in-place", grad=True))
    out.append(case("masked_fill", tr(u((4, 3))), bools((3, 1)), 0.0, id="grad transposed", grad=True))
    out.append(case("masked_fill", Big((1024, 1024), seed=1510), Big((1024, 1024), "bool", seed=1511), -1e9,
                    id="1M"))
    out.append(case("masked_fill", Big((1024, 1024), seed=1512), Big((1024,), "bool", seed=1513), float("-inf"),
                    id="1M grad broadcast mask", grad=True))
    return out


@golden("masked_select")
def _masked_select():
    out = []
    for xs, ms in [((3, 4), (3, 4)), ((3, 4), (4,)), ((3, 4), (3, 1)), ((4,), (3, 4)), ((3, 4), ()), ((0, 4), (4,)),
                   ((), ()), ((2, 3, 4), (3, 4))]:
        out.append(case("masked_select", u(xs), bools(ms), id=f"{xs} mask {ms}"))
    out.append(case("masked_select", u((3, 4)), np.zeros((3, 4), bool), id="nothing selected"))
    out.append(case("masked_select", u((3, 4)), np.ones((3, 4), bool), id="everything selected"))
    out.append(case("Tensor.masked_select", u((3, 4)), bools((3, 4)), id="method"))
    out.append(case("masked_select", ints((3, 4)), bools((3, 4)), id="int64"))
    out.append(case("masked_select", bools((3, 4)), bools((3, 4)), id="bool"))
    out.append(case("masked_select", u((3, 4)), ints((3, 4), 0, 1), id="error: int64 mask"))
    out.append(case("masked_select", u((3, 4)), bools((2, 4)), id="error: not broadcastable"))
    out.append(case("masked_select", tr(u((4, 3))), bools((3, 4)), id="transposed (row-major order)"))
    out.append(case("masked_select", u((3, 4)), V(bools((4, 3)), ("t",)), id="transposed mask"))
    out.append(case("masked_select", u((3, 4)), bools((3, 4)), id="grad", grad=True))
    out.append(case("masked_select", u((3, 1)), bools((3, 4)), id="grad broadcast input", grad=True))
    out.append(case("masked_select", tr(u((4, 3))), bools((4,)), id="grad transposed", grad=True))
    out.append(case("masked_select", Big((1024, 1024), seed=1520), Big((1024, 1024), "bool", seed=1521), id="1M"))
    out.append(case("masked_select", Big((1024, 1024), seed=1522), Big((1024,), "bool", seed=1523),
                    id="1M grad broadcast mask", grad=True))
    return out


@golden("nonzero")
def _nonzero():
    out = []
    wz = lambda s: np.where(bools(s), ints(s, 1, 5), 0).astype(np.int64)  # noqa: E731
    for name, x in [("1-D int64", wz((8,))), ("2-D int64", wz((3, 4))), ("3-D int64", wz((2, 3, 4))),
                    ("float", np.array([0.0, -0.0, 1.5, np.nan, 0.0, -2.0], np.float32)), ("bool", bools((3, 5))),
                    ("int32", wz((4,)).astype(np.int32)), ("all zero", np.zeros((3, 2), np.float32)),
                    ("none zero", np.ones((2, 2), np.float32)), ("empty", np.zeros((0, 3), np.float32)),
                    ("0-d nonzero", np.array(3.0, np.float32)), ("0-d zero", np.array(0.0, np.float32))]:
        out.append(case("nonzero", x, id=name))
        out.append(case("nonzero", x, as_tuple=True, id=f"{name} as_tuple"))
    out.append(case("Tensor.nonzero", wz((3, 4)), id="method"))
    out.append(case("Tensor.nonzero", wz((3, 4)), as_tuple=True, id="method as_tuple"))
    out.append(case("argwhere", wz((3, 4)), id="argwhere"))
    out.append(case("nonzero", V(wz((4, 3)), ("t",)), id="transposed (row-major order)"))
    out.append(case("nonzero", strided(wz((3, 8))), id="strided"))
    out.append(case("nonzero", Big((1024, 1024), "bool", seed=1530), id="1M bool"))
    out.append(case("nonzero", Big((1 << 20,), "int64", seed=1531), as_tuple=True, id="1M int64 as_tuple"))
    return out


def _tri(fn):
    def gen():
        out = []
        for shape, k in [((4, 4), 0), ((4, 4), 1), ((4, 4), -1), ((3, 5), 0), ((5, 3), 2), ((3, 5), -2), ((3, 5), 10),
                         ((3, 5), -10), ((2, 3, 4), 0), ((2, 3, 4), 1), ((0, 3), 0), ((1, 1), 0)]:
            out.append(case(fn, u(shape), k, id=f"{shape} diagonal={k}"))
        out.append(case(fn, u((4, 4)), diagonal=1, id="diagonal kwarg"))
        out.append(case(fn, u((4, 4)), id="default diagonal"))
        out.append(case(f"Tensor.{fn}", u((3, 4)), id="method"))
        out.append(case(f"Tensor.{fn}_", u((3, 4)), -1, id="in-place"))
        out.append(case(fn, ints((3, 4)), id="int64"))
        out.append(case(fn, bools((3, 4)), 1, id="bool"))
        out.append(case(fn, u((4,)), id="error: 1-D"))
        out.append(case(fn, np.full((3, 3), np.nan, np.float32), id="nan above/below stays out"))
        out.append(case(fn, tr(u((5, 3))), 1, id="transposed"))
        out.append(case(fn, u((4, 4)), id="grad", grad=True))
        out.append(case(fn, u((2, 3, 5)), -1, id="grad batched", grad=True))
        out.append(case(fn, tr(u((5, 3))), 1, id="grad transposed", grad=True))
        out.append(case(f"Tensor.{fn}_", nonleaf(u((3, 4))), 1, id="grad in-place", grad=True))
        out.append(case(fn, Big((1024, 1024), seed=1540 + len(fn)), id="1M"))
        out.append(case(fn, Big((4, 512, 512), seed=1550 + len(fn)), 3, id="1M batched grad", grad=True))
        return out
    golden(fn)(gen)


_tri("tril")
_tri("triu")


@golden("pad")
def _pad():
    F = "nn.functional.pad"
    out = []
    for shape, p, kw in [((5,), (2, 1), {}), ((3, 4), (1, 2), {}), ((3, 4), (1, 2, 0, 1), {}),
                         ((2, 3, 4), (1, 1, 1, 1, 1, 1), {}), ((3, 4), (0, 0), {}), ((3, 4), (-1, 1), {}),
                         ((3, 4), (2, -2, -1, 0), {}), ((3, 4), (1, 2), {"value": 0.5}),
                         ((3, 4), (1, 1), {"value": -np.inf}),
                         ((0, 4), (1, 1), {}), ((), (), {}), ((3, 4), (1, 2), {"mode": "constant", "value": 2.0})]:
        kw = {k: (float(v) if isinstance(v, float) else v) for k, v in kw.items()}
        out.append(case(F, u(shape), p, id=f"constant {shape} {p} {kw}", **kw))
    out.append(case(F, ints((3, 4)), (1, 1), value=7, id="constant int64"))
    out.append(case(F, u((3, 4)), pad=(1, 1), id="pad kwarg"))
    for mode in ("reflect", "replicate", "circular"):
        for shape, p in [((2, 6), (2, 1)), ((1, 2, 6), (2, 3)), ((2, 3, 5), (0, 4)), ((1, 2, 4, 5), (1, 2, 2, 1)),
                         ((2, 4, 5), (1, 1, 3, 0)), ((1, 2, 3, 4, 5), (1, 1, 0, 2, 2, 1)),
                         ((1, 1, 3, 4, 5), (1, 0, 1, 0, 1, 0))]:
            out.append(case(F, u(shape), p, mode=mode, id=f"{mode} {shape} {p}"))
        out.append(case(F, u((1, 2, 4, 5)), (1, 2, 2, 1), mode=mode, id=f"{mode} grad 4-D", grad=True))
        out.append(case(F, u((1, 2, 6)), (3, 2), mode=mode, id=f"{mode} grad 3-D", grad=True))
        out.append(case(F, u((1, 2, 3, 4, 5)), (1, 2, 0, 1, 2, 1), mode=mode, id=f"{mode} grad 5-D", grad=True))
        out.append(case(F, tr(u((5, 2, 1))), (1, 1), mode=mode, id=f"{mode} transposed", grad=True))
        out.append(case(F, u((1, 2, 3, 4)), (1, 1), mode=mode, id=f"{mode} 4-D input with 1-D padding (probe)"))
        out.append(case(F, u((4,)), (1, 1), mode=mode, id=f"{mode} 1-D input (probe)"))
        out.append(case(F, ints((1, 2, 6)), (1, 1), mode=mode, id=f"{mode} int64 (probe)"))
        out.append(case(F, u((1, 2, 6)), (1, 1, 1), mode=mode, id=f"error: {mode} odd padding length"))
    out.append(case(F, u((1, 2, 3)), (3, 0), mode="reflect", id="error: reflect padding >= size"))
    out.append(case(F, u((1, 2, 3)), (-1, 1), mode="reflect", id="reflect negative padding (probe)"))
    out.append(case(F, u((1, 2, 3)), (4, 0), mode="circular", id="error: circular padding > size"))
    out.append(case(F, u((1, 2, 3)), (1, 1), mode="zeros", id="error: unknown mode"))
    out.append(case(F, u((3, 4)), (1, 2, 3), id="error: odd padding length"))
    out.append(case(F, u((3, 4)), (1, 1, 1, 1, 1, 1), id="error: too much padding"))
    # the padding layers (nn.ZeroPad2d, nn.ReflectionPad2d, ...) over F.pad
    for mod, shape in [("nn.ZeroPad1d((2, 1))", (2, 3, 4)), ("nn.ZeroPad2d((1, 1, 0, 2))", (1, 2, 3, 4)),
                       ("nn.ZeroPad3d(1)", (1, 1, 2, 2, 2)), ("nn.ConstantPad1d((1, 2), 3.5)", (2, 3, 4)),
                       ("nn.ConstantPad2d(1, -1.0)", (2, 3, 3)), ("nn.ConstantPad3d((1, 0, 0, 1, 1, 0), 0.5)", (1, 1, 2, 2, 2)),
                       ("nn.ReflectionPad1d(2)", (1, 2, 5)), ("nn.ReflectionPad2d(1)", (1, 2, 3, 3)),
                       ("nn.ReflectionPad2d((2, 1, 0, 1))", (2, 3, 4)), ("nn.ReflectionPad3d((1, 0, 1, 0, 1, 0))", (1, 1, 2, 3, 3)),
                       ("nn.ReplicationPad1d((1, 3))", (1, 2, 4)), ("nn.ReplicationPad2d(2)", (1, 1, 3, 3)),
                       ("nn.ReplicationPad3d(1)", (1, 2, 2, 2, 2)), ("nn.CircularPad1d(1)", (1, 2, 4)),
                       ("nn.CircularPad2d((1, 2, 0, 1))", (1, 1, 3, 3)), ("nn.CircularPad3d(1)", (1, 1, 2, 2, 2))]:
        out.append(case("_module", mod, u(shape), id=f"grad module {mod}", grad=True))
    out.append(case("_module", "nn.CircularPad2d(1)", u((3, 3)), id="error: module CircularPad2d 2-D input"))
    out.append(case("_module", "nn.ReflectionPad2d(3)", u((1, 1, 3, 3)), id="error: module ReflectionPad2d pad >= size"))
    out.append(case(F, u((3, 4)), (1, 2, 0, 1), id="constant grad", grad=True))
    out.append(case(F, u((3, 4)), (-1, 2), value=1.0, id="constant grad negative", grad=True))
    out.append(case(F, tr(u((4, 3))), (1, 1, 2, 0), id="constant grad transposed", grad=True))
    out.append(case(F, Big((1024, 1024), seed=1560), (3, 5, 1, 2), value=0.25, id="constant 1M"))
    out.append(case(F, Big((4, 16, 128, 128), seed=1561), (2, 2, 2, 2), mode="reflect", id="reflect 1M grad",
                    grad=True))
    out.append(case(F, Big((4, 16, 128, 128), seed=1562), (1, 3, 3, 1), mode="replicate", id="replicate 1M"))
    out.append(case(F, Big((4, 16, 128, 128), seed=1563), (1, 1, 1, 1), mode="circular", id="circular 1M"))
    return out
