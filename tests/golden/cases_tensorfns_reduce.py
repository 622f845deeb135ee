"""Golden cases: searching, counting, unique, NaN-skipping and order-statistic reductions, logcumsumexp
(imported by cases.py). Error cases record PyTorch's message too, except ids ending in "[type only]"."""
from __future__ import annotations

import numpy as np

from cases import SPECIAL, Big, V, bools, case, distinct, golden, ints, tr
from cases_tensorfns import f, idx, u  # the shared input helpers

NAN, INF = np.nan, np.inf


def with_nans(shape, p=0.3):
    a = u(shape)
    a[bools(shape, p)] = NAN
    return a


def small_ints(shape, low=-3, high=3):
    """Float32 holding small integers: plenty of ties."""
    return ints(shape, low, high).astype(np.float32)


# ---------------------------------------------------------------- searching

@golden("searchsorted")
def _searchsorted():
    seq = f([1.0, 3.0, 5.0, 7.0])
    v = f([[0.0, 3.0, 6.0], [7.0, 8.0, 1.0]])
    rows = np.sort(u((2, 5)), axis=1)
    return [case("searchsorted", seq, v, id="1-D sequence"),
            case("searchsorted", seq, v, right=True, id="right"),
            case("searchsorted", seq, v, side="right", id="side right"),
            case("searchsorted", seq, v, right=False, side="right", id="side wins over right=False"),
            case("searchsorted", seq, v, side="left", id="side left"),
            case("searchsorted", seq, 4, id="scalar value"),
            case("searchsorted", seq, v, out_int32=True, id="out_int32"),
            case("searchsorted", rows, u((2, 3)), id="a row per leading index"),
            case("searchsorted", rows, u((2, 3)), right=True, id="rows right"),
            case("searchsorted", f([5.0, 1.0, 3.0]), f([2.0, 4.0]), sorter=idx([1, 2, 0]), id="sorter"),
            case("searchsorted", idx([1, 3, 5]), f([2.5, 3.0]), id="int64 sequence, float values"),
            case("searchsorted", f([1.0, 3.0]), idx([2, 4]), id="float sequence, int64 values"),
            case("searchsorted", f([1.0, 2.0, 2.0, 3.0]), f([2.0, -0.0, INF, NAN]), id="ties, -0, inf, nan"),
            case("searchsorted", f([1.0, 2.0, 2.0, 3.0]), f([2.0, -0.0, INF, NAN]), right=True, id="ties right"),
            case("searchsorted", f([1.0, 2.0, NAN]), f([NAN, 5.0, 1.5]), id="nan in the sequence"),
            case("searchsorted", f([1.0, 2.0, NAN]), f([NAN, 5.0, 1.5]), right=True, id="nan in the sequence, right"),
            case("searchsorted", f([]), f([1.0]), id="empty sequence"),
            case("searchsorted", seq, f([]), id="no values"),
            case("searchsorted", seq, v, side="foo", id="error: side"),
            case("searchsorted", seq, v, right=True, side="left", id="error: side and right disagree"),
            case("searchsorted", f(1.0), f([2.0]), id="error: 0-d sequence"),
            case("searchsorted", rows, u((3, 2)), id="error: leading dims differ"),
            case("searchsorted", rows, 1.0, id="error: scalar with rows"),
            case("searchsorted", seq, v, sorter=f([0.0, 1.0, 2.0, 3.0]), id="error: float sorter"),
            case("searchsorted", seq, v, sorter=idx([0, 1]), id="error: sorter size"),
            case("searchsorted", seq, v, sorter=idx([0, 1, 2, 4]), id="error: sorter out of range"),
            case("searchsorted", np.array([False, True]), np.array([True]), id="error: bool"),
            case("searchsorted", np.sort(u((4096,), -1, 1)), Big((256, 256), seed=7102), id="65536 values in 4096")]


@golden("bucketize")
def _bucketize():
    b = f([1.0, 3.0, 5.0, 7.0])
    v = f([[0.0, 3.0, 6.0], [7.0, 8.0, 1.0]])
    return [case("bucketize", v, b, id="basic"), case("bucketize", v, b, right=True, id="right"),
            case("bucketize", v, b, out_int32=True, id="out_int32"), case("bucketize", 3.0, b, id="scalar"),
            case("bucketize", idx([1, 3, 5]), b, id="int64 values"),
            case("bucketize", f([NAN, 2.0]), f([1.0, NAN]), id="nan"),
            case("bucketize", tr(u((3, 2))), np.sort(u((5,))), id="transposed values"),
            case("bucketize", v, b.reshape(2, 2), id="error: 2-D boundaries"),
            case("bucketize", v, f(1.0), id="error: 0-d boundaries"),
            case("bucketize", np.array([True]), np.array([False, True]), id="error: bool"),
            case("bucketize", Big((512, 128), seed=7103), np.sort(u((100,), -1, 1)), id="65536 values in 100")]


# ---------------------------------------------------------------- counting

@golden("histc")
def _histc():
    x = f([1.0, 2.0, 1.0, 2.5, 4.0, -1.0, NAN])
    return [case("histc", x, bins=4, min=0, max=3, id="range"),
            case("histc", x[:6], bins=4, id="the data's range"),
            case("histc", f([2.0, 2.0]), bins=4, id="one value: range widened by 1"),
            case("histc", f([]), bins=4, id="empty"),
            case("histc", u((4, 5)), 7, -2, 2, id="positional, 2-D"),
            case("histc", small_ints((50,), 0, 10), bins=10, min=0, max=10, id="values on the bin edges"),
            case("histc", u((30,)), bins=1, min=-1, max=1, id="one bin"),
            case("Tensor.histc", u((10,)), 5, id="method"),
            case("histc", ints((4,)), bins=4, id="error: int64"),
            case("histc", x, bins=0, id="error: zero bins"),
            case("histc", x, bins=4, min=3, max=1, id="error: min above max"),
            case("histc", x, bins=4, min=-INF, max=1, id="error: infinite range"),
            case("histc", f([1.0, INF]), bins=4, id="error: infinite data"),
            case("histc", x, bins=4, id="error: nan data [type only]"),
            case("histc", Big((256, 256), seed=7104), bins=50, id="65536 values")]


@golden("bincount")
def _bincount():
    x = idx([1, 1, 3])
    return [case("bincount", x, id="basic"), case("bincount", x, minlength=6, id="minlength"),
            case("bincount", x, weights=f([0.5, 1.0, 2.0]), id="float weights"),
            case("bincount", x.astype(np.int32), id="int32"),
            case("bincount", idx([]), id="empty"), case("bincount", idx([]), minlength=3, id="empty, minlength"),
            case("Tensor.bincount", ints((40,), 0, 9), id="method"),
            case("bincount", idx([-1, 1]), id="error: negative"),
            case("bincount", idx([[1, 1]]), id="error: 2-D"),
            case("bincount", np.array(1, np.int64), id="error: 0-d"),
            case("bincount", f([1.0, 1.0]), id="error: float"),
            case("bincount", np.array([True, False]), id="error: bool"),
            case("bincount", x, minlength=-1, id="error: negative minlength"),
            case("bincount", x, weights=f([1.0]), id="error: weights length"),
            # weights positional: the generator's scale run (sums of |weights|) takes |x| of positional args
            case("bincount", V(Big((10000,), "int64", seed=7113), ("abs",)), Big((10000,), seed=7114),
                 id="10000 weighted")]


@golden("unique")
def _unique():
    x = f([3.0, 1.0, 2.0, 1.0, NAN, 3.0, NAN])
    y = ints((20,), 0, 6)
    m = idx([[1, 2], [1, 2], [0, 5], [1, 0]])
    out = [case("unique", x, id="float with nan"), case("unique", x, return_inverse=True, return_counts=True, id="all"),
           case("unique", y, return_inverse=True, id="inverse"), case("unique", y, return_counts=True, id="counts"),
           case("unique", y, sorted=False, return_inverse=True, return_counts=True, id="sorted=False"),
           case("unique", ints((3, 4), 0, 3), return_inverse=True, id="2-D flattened"),
           case("unique", bools((9,)), return_counts=True, id="bool"),
           case("unique", f(3.0), return_inverse=True, return_counts=True, id="0-d"),
           case("unique", f([]), return_inverse=True, return_counts=True, id="empty"),
           case("unique", f([-0.0, 0.0, 1.0]), id="signed zeros"),
           case("Tensor.unique", y, id="method"),
           case("unique", m, dim=0, return_inverse=True, return_counts=True, id="dim 0"),
           case("unique", m.T.copy(), dim=1, return_inverse=True, return_counts=True, id="dim 1"),
           case("unique", ints((3, 2, 2), 0, 1), dim=-1, return_inverse=True, return_counts=True, id="dim -1 of 3-D"),
           case("unique", np.zeros((0, 3), np.float32), dim=0, return_counts=True, id="dim 0 of empty"),
           case("unique", np.zeros((2, 0), np.float32), dim=0, id="error: other dims empty"),
           case("unique", u((2, 3)), dim=2, id="error: dim out of range"),
           case("unique", Big((1 << 14,), "int64", seed=7105), return_inverse=True, return_counts=True, id="16384")]
    return out


@golden("unique_consecutive")
def _unique_consecutive():
    x = idx([1, 1, 2, 2, 3, 1, 1, 2])
    return [case("unique_consecutive", x, id="basic"),
            case("unique_consecutive", x, return_inverse=True, return_counts=True, id="all"),
            case("unique_consecutive", f([3.0, 1.0, NAN, NAN, 1.0, 1.0]), return_counts=True, id="nan"),
            case("unique_consecutive", ints((3, 4), 0, 1), return_inverse=True, id="2-D flattened"),
            case("unique_consecutive", idx([[1, 2], [1, 2], [0, 5], [1, 2]]), dim=0, return_inverse=True,
                 return_counts=True, id="dim 0"),
            case("unique_consecutive", ints((2, 5), 0, 1), dim=1, return_counts=True, id="dim 1"),
            case("unique_consecutive", f(2.0), return_inverse=True, id="0-d"),
            case("unique_consecutive", f([]), return_counts=True, id="empty"),
            case("Tensor.unique_consecutive", x, return_counts=True, id="method"),
            case("unique_consecutive", u((2, 3)), dim=3, id="error: dim out of range"),
            case("unique_consecutive", Big((1 << 14,), "bool", seed=7106), return_counts=True, id="16384 bool")]


# ---------------------------------------------------------------- NaN-skipping sums

@golden("nansum")
def _nansum():
    x = with_nans((3, 4))
    return [case("nansum", x, id="all"), case("nansum", x, 1, id="dim 1"),
            case("nansum", x, dim=(0, 1), keepdim=True, id="dims keepdim"),
            case("nansum", f([NAN, NAN]), id="all nan"), case("nansum", ints((3, 4)), id="int64"),
            case("nansum", bools((5,)), id="bool"), case("nansum", x, 0, dtype="float32", id="dtype"),
            case("Tensor.nansum", x, -1, id="method"), case("nansum", SPECIAL.copy(), id="special values"),
            case("nansum", x, 2, id="error: dim out of range"),
            case("nansum", x, id="grad", grad=True), case("nansum", tr(with_nans((4, 3))), 0, id="grad dim", grad=True),
            case("nansum", Big((512, 512), seed=7107), 1, id="512x512")]


@golden("nanmean")
def _nanmean():
    x = with_nans((3, 4))
    x[2] = NAN
    return [case("nanmean", x, id="all"), case("nanmean", x, 1, id="dim 1 (an all-nan row)"),
            case("nanmean", x, 0, keepdim=True, id="dim 0 keepdim"), case("nanmean", x, dim=(0, 1), id="dims"),
            case("Tensor.nanmean", u((2, 3)), 1, id="method"), case("nanmean", x, 1, dtype="float32", id="dtype"),
            case("nanmean", ints((3,)), id="error: int64"),
            case("nanmean", x, 1, id="grad", grad=True), case("nanmean", with_nans((4, 5)), id="grad all", grad=True)]


# ---------------------------------------------------------------- order statistics

@golden("median")
def _median():
    return [case("median", f([3.0, 1.0, 2.0, 4.0]), id="even count: the lower middle"),
            case("median", u((3, 5)), id="all of 2-D"),
            case("median", f([3.0, 1.0, NAN, 4.0]), id="nan"),
            case("median", distinct((3, 4)), 1, id="dim 1"),
            case("median", small_ints((3, 6)), 1, id="dim 1 with ties"),
            case("median", with_nans((4, 5)), 1, id="dim 1 with nans"),
            case("median", distinct((4, 3)), 0, keepdim=True, id="dim 0 keepdim"),
            case("median", ints((5, 4)), 0, id="int64"),
            case("median", f(3.0), 0, id="0-d with dim"), case("median", f(3.0), id="0-d"),
            case("median", f([]), id="empty"), case("median", np.zeros((2, 0), np.float32), 0, id="dim 0 of (2, 0)"),
            case("Tensor.median", distinct((2, 5)), -1, id="method"),
            case("median", bools((4,)), id="error: bool"),
            case("median", np.zeros((0, 3), np.float32), 0, id="error: empty dim"),
            case("median", small_ints((4, 3)), id="grad all, ties split", grad=True),
            case("median", small_ints((3, 5)), 1, id="grad dim with ties", grad=True),
            case("median", tr(distinct((5, 3))), 0, id="grad transposed", grad=True),
            case("median", Big((256, 255), seed=7108), 1, id="256 rows of 255")]


@golden("mode")
def _mode():
    return [case("mode", idx([1, 2, 2, 3, 3, 0]), id="ties: the smallest, last index"),
            case("mode", idx([3, 3, 2, 2, 1]), id="ties, unsorted"),
            case("mode", f([[1.0, 2, 2, 1], [5, 4, 4, 5]]), 1, id="dim 1"),
            case("mode", small_ints((4, 6), 0, 3), 0, id="dim 0"),
            case("mode", small_ints((3, 5), 0, 2), 1, keepdim=True, id="keepdim"),
            case("mode", f([1.0, NAN, NAN, 2.0]), id="nan values are all distinct"),
            case("mode", f([-0.0, 0.0, 1.0]), id="signed zeros"),
            case("mode", bools((7,)), id="bool"), case("mode", f(3.0), id="0-d"),
            case("mode", np.zeros((2, 0), np.float32), 0, id="dim 0 of (2, 0)"),
            case("Tensor.mode", small_ints((2, 8), 0, 3), id="method"),
            case("mode", f([]), id="error: empty dim"),
            case("mode", small_ints((4, 6), 0, 3), 1, id="grad", grad=True),
            case("mode", tr(small_ints((6, 3), 0, 2)), 0, id="grad transposed", grad=True),
            # ties: PyTorch's CPU kernel sorts each row with std::sort, which keeps equal values in index order
            # only for rows of up to 16 elements (insertion sort); its index for longer rows is unspecified
            case("mode", Big((4096, 16), "int64", seed=7109), 1, id="4096 rows of 16")]


@golden("quantile")
def _quantile():
    x = f([[1.0, 7.0, 3.0, 4.0], [NAN, 2.0, 5.0, NAN]])
    q = f([0.1, 0.5, 0.99])
    out = [case("quantile", x[0].copy(), 0.3, id="float q"), case("quantile", x, 0.3, dim=1, id="dim 1"),
           case("quantile", x, q, dim=1, id="1-D q"), case("quantile", x, q, dim=1, keepdim=True, id="1-D q keepdim"),
           case("quantile", x[0].copy(), f(0.25), id="0-d q"), case("quantile", u((3, 4)), q, id="all, 1-D q"),
           case("quantile", u((3, 4)), 0.5, keepdim=True, id="all keepdim"),
           case("quantile", u((3, 4, 2)), q, dim=1, id="middle dim"), case("quantile", f(3.0), 0.5, dim=0, id="0-d"),
           case("quantile", u((5,)), 1, id="int q"), case("Tensor.quantile", u((4, 3)), 0.75, 0, id="method")]
    for it in ("linear", "lower", "higher", "midpoint", "nearest"):
        out.append(case("quantile", u((3, 7)), f([0.0, 0.25, 0.5, 0.6, 1.0]), dim=1, interpolation=it, id=it))
    out += [case("quantile", x, 1.5, id="error: q above 1"),
            case("quantile", x, f([0.5, -0.1]), id="error: q tensor out of range"),
            case("quantile", x, 0.5, interpolation="foo", id="error: interpolation"),
            case("quantile", ints((4,)), 0.5, id="error: int64 input"),
            case("quantile", x, np.array([[0.5]], np.float32), id="error: 2-D q"),
            case("quantile", f([]), 0.5, id="error: empty"),
            case("quantile", x, 0.5, dim=2, id="error: dim out of range"),
            case("quantile", u((3, 6)), q, dim=1, id="grad", grad=True),
            case("quantile", u((3, 6)), f([0.2, 0.7]), dim=0, interpolation="midpoint", id="grad midpoint", grad=True),
            case("quantile", Big((128, 512), seed=7110), f([0.01, 0.5, 0.99]), dim=1, id="128 rows of 512")]
    return out


@golden("nanquantile")
def _nanquantile():
    x = f([[1.0, 7.0, 3.0, 4.0], [NAN, 2.0, 5.0, NAN], [NAN, NAN, NAN, NAN]])
    q = f([0.1, 0.5, 0.99])
    out = [case("nanquantile", x, q, dim=1, id="1-D q"), case("nanquantile", x, 0.4, id="all"),
           case("nanquantile", x, 0.5, dim=0, keepdim=True, id="dim 0 keepdim"),
           case("nanquantile", f([NAN]), 0.5, id="all nan"), case("Tensor.nanquantile", x, 0.5, 1, id="method")]
    for it in ("lower", "higher", "midpoint", "nearest"):
        out.append(case("nanquantile", x, q, dim=1, interpolation=it, id=it))
    out += [case("nanquantile", x, 1.5, id="error: q above 1"),
            case("nanquantile", ints((3,)), 0.5, id="error: int64 input"),
            case("nanquantile", with_nans((3, 6)), q, dim=1, id="grad", grad=True)]
    return out


# ---------------------------------------------------------------- scans

@golden("logcumsumexp")
def _logcumsumexp():
    return [case("logcumsumexp", f([-200.0, 0.0, 1.0, -INF, INF, 3.0]), 0, id="special values"),
            case("logcumsumexp", f([-INF, -INF, 1.0, NAN, 3.0]), 0, id="-inf and nan"),
            case("logcumsumexp", u((3, 4)), -1, id="last dim"), case("logcumsumexp", u((3, 4)), dim=0, id="dim 0"),
            case("logcumsumexp", f(2.0), 0, id="0-d"), case("Tensor.logcumsumexp", u((2, 5)), 1, id="method"),
            case("logcumsumexp", tr(u((5, 3))), 0, id="transposed"),
            case("logcumsumexp", u((4, 300), -20, 20), 1, id="rows of 300"),
            case("logcumsumexp", ints((3,)), 0, id="error: int64"),
            case("logcumsumexp", bools((3,)), 0, id="error: bool"),
            case("logcumsumexp", u((3, 4)), 2, id="error: dim out of range"),
            case("logcumsumexp", u((3, 5)), 1, id="grad", grad=True),
            case("logcumsumexp", f([1.0, 2.0, -INF, 4.0]), 0, id="grad through -inf", grad=True),
            case("logcumsumexp", tr(u((6, 4))), 0, id="grad transposed", grad=True),
            case("logcumsumexp", Big((2, 20000), seed=7111), 1, id="2 rows of 20000 (chunked scan)"),
            case("logcumsumexp", Big((1000, 64), seed=7112), 0, id="64 columns of 1000")]


# ---------------------------------------------------------------- kthvalue, aminmax, cummax, cummin
# kthvalue's index among equal values is PyTorch's quickselect's (unspecified): its inputs have distinct values

@golden("kthvalue")
def _kthvalue():
    return [case("kthvalue", f([3.0, 1.0, 4.0, 1.5, 9.0]), 2, id="1-D"),
            case("kthvalue", distinct((3, 5)), 4, id="last dim by default"),
            case("kthvalue", distinct((4, 3)), 1, 0, id="dim 0, k=1"),
            case("kthvalue", distinct((4, 3)), 4, 0, keepdim=True, id="dim 0 keepdim, k=n"),
            case("kthvalue", distinct((2, 3, 4)), 2, dim=1, id="middle dim"),
            case("kthvalue", f([2.0, NAN, 1.0]), 3, id="nan ranks last"),
            case("kthvalue", f([[2.0, NAN, 1.0], [0.5, 3.0, -1.0]]), 2, 1, id="nan rows"),
            case("kthvalue", idx([5, -2, 7, 0]), 3, id="int64"),
            case("kthvalue", f(3.0), 1, id="0-d"),
            case("kthvalue", np.zeros((2, 0), np.float32), 1, 0, id="dim 0 of (2, 0)"),
            case("Tensor.kthvalue", distinct((2, 5)), 3, id="method"),
            case("kthvalue", distinct((3, 5)), 4, id="grad", grad=True),
            case("kthvalue", tr(distinct((5, 3))), 2, 0, keepdim=True, id="grad transposed keepdim", grad=True),
            case("kthvalue", distinct((2, 3)), 0, id="error: k = 0"),
            case("kthvalue", distinct((2, 3)), 4, id="error: k above the size"),
            case("kthvalue", f(3.0), 2, id="error: k = 2 of 0-d"),
            case("kthvalue", distinct((2, 3)), 1, 2, id="error: dim"),
            case("kthvalue", np.zeros((2, 0), np.float32), 1, id="error: empty dim"),
            case("kthvalue", bools((4,)), 1, id="error: bool"),
            case("kthvalue", distinct((4,)), 1.5, id="error: float k"),
            case("kthvalue", Big((64, 300), seed=7110), 150, 1, id="64 rows of 300")]


@golden("aminmax")
def _aminmax():
    return [case("aminmax", u((3, 4)), id="all"),
            case("aminmax", u((3, 4)), dim=1, id="dim 1"),
            case("aminmax", u((3, 4)), dim=0, keepdim=True, id="dim 0 keepdim"),
            case("aminmax", u((2, 3, 4)), dim=-2, id="dim -2"),
            case("aminmax", f([1.0, NAN, 3.0]), id="nan"),
            case("aminmax", f([[1.0, NAN], [2.0, 0.5]]), dim=1, id="nan rows"),
            case("aminmax", ints((3, 5)), dim=1, id="int64"),
            case("aminmax", bools((6,)), id="bool"),
            case("aminmax", f(2.0), id="0-d"), case("aminmax", f(2.0), dim=0, keepdim=True, id="0-d dim keepdim"),
            case("aminmax", np.zeros((2, 0), np.float32), dim=0, id="dim 0 of (2, 0)"),
            case("Tensor.aminmax", u((2, 5)), dim=1, id="method"),
            case("aminmax", small_ints((4, 5)), id="grad all, ties split", grad=True),
            case("aminmax", small_ints((4, 5)), dim=1, id="grad dim with ties", grad=True),
            case("aminmax", tr(u((5, 3))), dim=0, keepdim=True, id="grad transposed keepdim", grad=True),
            case("aminmax", f([]), id="error: empty"),
            case("aminmax", np.zeros((2, 0), np.float32), dim=1, id="error: empty dim"),
            case("aminmax", u((2, 3)), dim=2, id="error: dim"),
            case("aminmax", u((2, 3)), 1, id="error: positional dim [type only]"),
            case("aminmax", Big((96, 257), seed=7111), dim=1, id="96 rows of 257")]


def _running(op):
    return [case(op, small_ints((9,)), 0, id="1-D with ties: the last index"),
            case(op, u((3, 6)), 1, id="dim 1"), case(op, u((5, 3)), 0, id="dim 0"),
            case(op, u((2, 5, 3)), -2, id="middle dim"),
            case(op, f([1.0, 3.0, NAN, 2.0, NAN, 9.0]), 0, id="nan stays, later nan takes the index"),
            case(op, f([[NAN, 1.0, 2.0], [0.0, -1.0, NAN]]), 1, id="nan rows"),
            case(op, ints((3, 7), -2, 2), 1, id="int64 with ties"),
            case(op, bools((8,)), 0, id="bool"),
            case(op, f([-0.0, 0.0, -0.0]), 0, id="signed zeros"),
            case(op, f(2.0), 0, id="0-d"), case(op, f([]), 0, id="empty"),
            case("Tensor." + op, u((2, 5)), 1, id="method"),
            case(op, small_ints((4, 6)), 1, id="grad with ties", grad=True),
            case(op, tr(u((6, 3))), 0, id="grad transposed", grad=True),
            case(op, u((2, 3)), 2, id="error: dim"),
            case(op, u((3,)), id="error: no dim [type only]"),
            case(op, Big((33, 1000), seed=7112), 1, id="33 rows of 1000")]


@golden("cummax")
def _cummax():
    return _running("cummax")


@golden("cummin")
def _cummin():
    return _running("cummin")
