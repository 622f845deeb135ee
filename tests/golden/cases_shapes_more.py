"""Golden cases: the shape, construction, statistics and Tensor-method names of issue 11 (ops/shape_more.py,
scatter_more.py, tensor_meta.py, creation_more.py, stats.py, random_more.py; imported by cases.py).

Views are checked as views: a case writes through the result (``mul_`` on it, then the base is read
back through ``_base``) or reads its strides. Small shapes: these ops are compositions of ops whose
own goldens cover large sizes."""
from __future__ import annotations

import numpy as np

from cases import V, case, distinct, golden, ints, nonleaf, tr
from cases_tensorfns import f, idx, u

NAN = np.float32(np.nan)


def _through_view(*steps):
    """``base * 1`` viewed by steps, written through (``mul_(2)``), then the base read back: the gradient
    and the values prove the result is a view."""
    return case("Tensor.clone", V(u((3, 4)), ("mul", 1.0), *steps, ("mul_", 2.0),
                                  ("__getattribute__", "_base")), id=f"write through {steps[0][0]}", grad=True)


# ---------------------------------------------------------------- shape

@golden("atleast_1d")
def _atleast():
    out = []
    for fn in ("atleast_1d", "atleast_2d", "atleast_3d"):
        for shape in [(), (3,), (2, 3), (2, 3, 4), (1, 2, 3, 1)]:
            out.append(case(fn, u(shape), id=f"{fn} {shape}"))
        out.append(case(fn, u(()), u((2,)), u((2, 2)), id=f"{fn} several"))
        out.append(case(fn, [u((2,)), u(())], id=f"{fn} list"))
        out.append(case(fn, u((3,)), id=f"{fn} grad", grad=True))
    out.append(case("atleast_3d", ints((2, 2)), id="int64"))
    out.append(case("atleast_1d", 3, id="error: not a tensor [type only]"))
    return out


@golden("broadcast_to")
def _broadcast_to():
    out = [case("broadcast_to", u((3, 1)), (3, 4), id="(3,1) to (3,4)"),
           case("broadcast_to", u((4,)), (2, 3, 4), id="new dims"),
           case("broadcast_to", u((3, 1)), (-1, 2), id="-1 keeps"),
           case("Tensor.broadcast_to", ints((1,)), (5,), id="method int64"),
           case("broadcast_to", u((3, 4)), (2, 4), id="error: mismatch"),
           case("broadcast_to", u((3, 1)), (2, 3, 4), id="grad", grad=True),
           case("Tensor.stride", V(u((3, 1)), ("broadcast_to", (2, 3, 4))), id="strides of the view")]
    return out


@golden("broadcast_tensors")
def _broadcast_tensors():
    return [case("broadcast_tensors", u((3, 1)), u((4,)), id="two"),
            case("broadcast_tensors", u(()), u((2, 1)), ints((1, 3)), id="three mixed"),
            case("broadcast_tensors", u((2,)), id="one"),
            case("broadcast_tensors", u((2,)), u((3,)), id="error: mismatch"),
            case("broadcast_tensors", u((3, 1)), u((1, 2)), id="grad", grad=True)]


@golden("tensor_split")
def _tensor_split():
    out = []
    for args in [(3,), (4,), (1,), (7,), ([1, 4],), ([0, 2, 2, 9],), ([-2],), ([5, 2],), (idx(3), ), (idx([1, 3]),)]:
        out.append(case("tensor_split", u((7, 2)), *args, id=f"dim 0 {args}"))
    out.append(case("tensor_split", u((2, 5)), 2, 1, id="dim 1 sections"))
    out.append(case("Tensor.tensor_split", u((2, 5)), [1, 3], dim=-1, id="method indices dim -1"))
    out.append(case("tensor_split", u((0, 3)), 2, id="empty"))
    out.append(case("tensor_split", u(()), 2, id="error: 0-d"))
    out.append(case("tensor_split", u((4,)), 0, id="error: zero sections"))
    out.append(case("tensor_split", u((4,)), f([1.0]), id="error: float indices"))
    out.append(case("tensor_split", u((5, 3)), [1, 3], id="grad", grad=True))
    out.append(_through_view(("tensor_split", 2, 1), ("__getitem__", 1)))
    return out


@golden("hsplit")
def _hsplit():
    out = []
    for fn, shape, arg in [("hsplit", (6,), 3), ("hsplit", (2, 4), 2), ("hsplit", (2, 4), [1, 3]),
                           ("vsplit", (4, 2), 2), ("vsplit", (4, 2), [3]), ("dsplit", (1, 2, 6), 3),
                           ("dsplit", (1, 2, 6), [1, 4])]:
        out.append(case(fn, u(shape), arg, id=f"{fn} {shape} {arg}"))
        out.append(case(f"Tensor.{fn}", u(shape), arg, id=f"method {fn} {shape} {arg}"))
    out.append(case("hsplit", u(()), 2, id="error: hsplit 0-d"))
    out.append(case("hsplit", u((3, 4)), 3, id="error: hsplit uneven"))
    out.append(case("vsplit", u((4,)), 2, id="error: vsplit 1-D"))
    out.append(case("vsplit", u((3, 4)), 2, id="error: vsplit uneven"))
    out.append(case("dsplit", u((3, 4)), 2, id="error: dsplit 2-D"))
    out.append(case("hsplit", u((2, 4)), 2, id="grad", grad=True))
    return out


@golden("split_with_sizes")
def _split_with_sizes():
    return [case("split_with_sizes", u((5, 2)), [2, 3], id="dim 0"),
            case("Tensor.split_with_sizes", u((2, 5)), [1, 0, 4], 1, id="method dim 1 with an empty piece"),
            case("split_with_sizes", u((5,)), [2, 2], id="error: sizes do not add up"),
            case("split_with_sizes", u((5, 2)), [4, 1], id="grad", grad=True)]


@golden("column_stack")
def _column_stack():
    return [case("column_stack", [u((3,)), u((3,))], id="vectors"),
            case("column_stack", [u((3,)), u((3, 2)), u((3, 1))], id="vector and matrices"),
            case("column_stack", [u(()), u(())], id="scalars"),
            case("column_stack", (ints((2,)), u((2,))), id="int and float"),
            case("column_stack", [], id="error: empty"),
            case("column_stack", [u((3,)), u((3, 2))], id="grad", grad=True),
            case("row_stack", [u((3,)), u((3,))], id="row_stack vectors"),
            case("row_stack", [u((2, 3)), u((3,))], id="row_stack matrix and vector"),
            case("row_stack", [], id="error: row_stack empty"),
            case("row_stack", [u((2,)), u((1, 2))], id="row_stack grad", grad=True)]


@golden("dstack")
def _dstack():
    return [case("dstack", [u((3,)), u((3,))], id="vectors"),
            case("dstack", [u((2, 3)), u((2, 3, 2))], id="matrix and 3-D"),
            case("dstack", [u(()), u(())], id="scalars"),
            case("dstack", [], id="error: empty"),
            case("dstack", [u((2, 2)), u((2, 2))], id="grad", grad=True)]


@golden("diff")
def _diff():
    out = []
    for shape, kw in [((5,), {}), ((5,), {"n": 2}), ((5,), {"n": 0}), ((5,), {"n": 7}), ((3, 4), {"dim": 0}),
                      ((3, 4), {"dim": -1, "n": 3}), ((2, 3, 4), {"dim": 1})]:
        out.append(case("diff", u(shape), id=f"{shape} {kw}", **kw))
    out.append(case("diff", u((3, 4)), prepend=u((3, 1)), append=u((3, 2)), id="prepend and append"))
    out.append(case("diff", u((3, 4)), 1, 0, u((2, 4)), id="prepend dim 0 positional"))
    out.append(case("Tensor.diff", ints((6,)), id="method int64"))
    out.append(case("diff", np.array([True, True, False, True]), id="bool"))
    out.append(case("diff", tr(u((4, 3))), id="transposed"))
    out.append(case("diff", u(()), id="error: 0-d"))
    out.append(case("diff", u((4,)), n=-1, id="error: negative n"))
    out.append(case("diff", u((3, 4)), n=2, prepend=u((3, 1)), id="grad", grad=True))
    return out


@golden("rot90")
def _rot90():
    out = []
    for k in (1, 2, 3, 4, -1, 5, 0):
        out.append(case("rot90", u((2, 3)), k, id=f"k={k}"))
    out.append(case("rot90", u((2, 3, 4)), 1, [2, 0], id="3-D dims [2, 0]"))
    out.append(case("Tensor.rot90", ints((2, 2)), 1, [1, 0], id="method reversed dims"))
    out.append(case("rot90", u((2, 3)), 1, [0], id="error: one dim"))
    out.append(case("rot90", u((2, 3)), 1, [0, 0], id="error: same dims"))
    out.append(case("rot90", u((3,)), 1, [0, 1], id="error: 1-D"))
    out.append(case("rot90", u((2, 3)), 1, id="grad", grad=True))
    out.append(case("rot90", u((2, 3)), 3, id="grad k=3", grad=True))
    return out


@golden("block_diag")
def _block_diag():
    return [case("block_diag", u((2, 2)), u((1, 3)), id="two matrices"),
            case("block_diag", u(()), u((2,)), u((2, 1)), id="scalar, vector, matrix"),
            case("block_diag", ints((2, 2)), u((1, 1)), id="int and float"),
            case("block_diag", u((0, 2)), u((2, 0)), u((1, 1)), id="empty blocks"),
            case("block_diag", u((2, 2, 2)), id="error: 3-D"),
            case("block_diag", u((2, 2)), u((1, 3)), id="grad", grad=True)]


@golden("combinations")
def _combinations():
    out = []
    for n, r, rep in [(4, 2, False), (4, 3, False), (3, 2, True), (3, 1, False), (2, 3, False), (4, 0, False),
                      (0, 2, False)]:
        out.append(case("combinations", u((n,)), r, rep, id=f"n={n} r={r} with_replacement={rep}"))
    out.append(case("combinations", ints((4,)), id="int64 default r"))
    out.append(case("combinations", u((2, 2)), id="error: 2-D"))
    out.append(case("combinations", u((3,)), -1, id="error: negative r"))
    out.append(case("combinations", u((4,)), 2, id="grad", grad=True))
    return out


@golden("Tensor.unfold")
def _unfold():
    out = []
    for shape, args in [((7,), (0, 3, 2)), ((7,), (0, 7, 1)), ((7,), (0, 0, 3)), ((3, 5), (1, 2, 1)),
                        ((3, 5), (0, 2, 2)), ((2, 3, 4), (-1, 3, 1)), ((), (0, 1, 1)), ((), (0, 0, 2))]:
        out.append(case("Tensor.unfold", u(shape), *args, id=f"{shape} {args}"))
    out.append(case("Tensor.unfold", tr(u((5, 3))), 1, 2, 2, id="transposed"))
    out.append(case("Tensor.unfold", ints((6,)), 0, 2, 2, id="int64"))
    out.append(case("Tensor.stride", V(u((3, 5)), ("unfold", 1, 2, 1)), id="strides of the view"))
    out.append(case("Tensor.unfold", u((3, 4)), 1, 5, 1, id="error: size too big"))
    out.append(case("Tensor.unfold", u((3, 4)), 1, 2, 0, id="error: step 0"))
    out.append(case("Tensor.unfold", u((3, 4)), 1, -1, 1, id="error: negative size"))
    out.append(case("Tensor.unfold", u((8,)), 0, 3, 2, id="grad overlapping windows", grad=True))
    out.append(case("Tensor.unfold", u((3, 5)), 1, 2, 3, id="grad with gaps", grad=True))
    out.append(case("Tensor.unfold", u((2, 3, 4)), 0, 2, 1, id="grad dim 0 of 3-D", grad=True))
    out.append(_through_view(("unfold", 1, 2, 2)))
    return out


@golden("diagflat")
def _diagflat():
    return [case("diagflat", u((3,)), id="vector"),
            case("diagflat", u((2, 2)), 1, id="matrix offset 1"),
            case("diagflat", u((3,)), -2, id="offset -2"),
            case("Tensor.diagflat", ints((2,)), id="method int64"),
            case("diagflat", u(()), id="0-d"),
            case("diagflat", u((2, 2)), -1, id="grad", grad=True)]


# ---------------------------------------------------------------- scatters and copies

@golden("select_scatter")
def _select_scatter():
    return [case("select_scatter", u((3, 4)), u((4,)), 0, 1, id="dim 0"),
            case("select_scatter", u((3, 4)), u((3,)), 1, -1, id="dim 1 index -1"),
            case("Tensor.select_scatter", ints((2, 3)), ints((2,)), 1, 0, id="method int64"),
            case("select_scatter", tr(u((4, 3))), u((4,)), 0, 2, id="transposed input"),
            case("select_scatter", u((3, 4)), u((3,)), 0, 0, id="error: wrong src shape"),
            case("select_scatter", u((3, 4)), u((3,)), 1, 2, id="grad", grad=True)]


@golden("slice_scatter")
def _slice_scatter():
    return [case("slice_scatter", u((4, 3)), u((2, 3)), id="error: src smaller than the default slice [type only]"),
            case("slice_scatter", u((4, 3)), u((4, 3)), id="defaults"),
            case("slice_scatter", u((3, 5)), u((3, 2)), 1, 1, 5, 2, id="dim 1 step 2"),
            case("slice_scatter", u((5, 2)), u((2, 2)), start=-2, id="negative start"),
            case("Tensor.slice_scatter", ints((4,)), ints((2,)), 0, None, 2, id="method end only"),
            case("slice_scatter", u((3, 4)), u((3, 3)), 1, 0, 2, id="error: wrong src shape"),
            case("slice_scatter", u((3, 6)), u((3, 2)), 1, 1, None, 3, id="grad", grad=True)]


@golden("diagonal_scatter")
def _diagonal_scatter():
    return [case("diagonal_scatter", u((3, 4)), u((3,)), id="main"),
            case("diagonal_scatter", u((3, 4)), u((3,)), 1, id="offset 1"),
            case("diagonal_scatter", u((2, 3, 4)), u((3, 2)), 0, 0, 2, id="3-D dims 0 2"),
            case("Tensor.diagonal_scatter", ints((3, 3)), ints((2,)), -1, id="method int64"),
            case("diagonal_scatter", u((3, 4)), u((4,)), id="error: wrong src shape"),
            case("diagonal_scatter", u((3, 3)), u((2,)), -1, id="grad", grad=True),
            case("as_strided_scatter", u((6,)), u((2, 2)), (2, 2), (1, 2), 1, id="as_strided_scatter"),
            case("as_strided_scatter", tr(u((3, 2))), u((2,)), (2,), (2,), 0,
                 id="as_strided_scatter transposed (the clone keeps the strides)"),
            case("Tensor.as_strided_scatter", u((2, 3)), u((3,)), (3,), (1,), id="as_strided_scatter method"),
            case("as_strided_scatter", u((6,)), u((3,)), (2,), (1,), id="error: as_strided_scatter src shape"),
            # src's gradient only: PyTorch 2.13 gives input the gradient of the replaced part instead of the rest
            case("as_strided_scatter", V(u((2, 3)), ("detach",)), u((2, 2)), (2, 2), (3, 1), 1,
                 id="grad as_strided_scatter (src)", grad=True)]


@golden("index_copy")
def _index_copy():
    return [case("index_copy", u((4, 3)), 0, idx([2, 0]), u((2, 3)), id="dim 0"),
            case("index_copy", u((3, 4)), 1, idx([3, 1, 0]), u((3, 3)), id="dim 1"),
            case("Tensor.index_copy", ints((5,)), 0, idx([4]), ints((1,)), id="method int64"),
            case("Tensor.index_copy_", u((4, 2)), 0, idx([1, 3]), u((2, 2)), id="in place"),
            case("index_copy", u((3,)), 0, idx([-1]), u((1,)), id="error: negative index [type only]"),
            case("index_copy", u((3, 4)), 0, f([0.0]), u((1, 4)), id="error: float index"),
            case("index_copy", u((3, 4)), 0, idx([0]), u((1, 3)), id="error: slice shapes"),
            case("index_copy", u((3, 4)), 0, idx([5]), u((1, 4)), id="error: out of range [type only]"),
            case("index_copy", u((4, 3)), 0, idx([3, 1]), u((2, 3)), id="grad", grad=True),
            case("Tensor.index_copy_", nonleaf(u((3, 4))), 1, idx([0, 2]), u((3, 2)), id="grad in place",
                 grad=True)]


@golden("index_reduce")
def _index_reduce():
    out = []
    for red in ("prod", "mean", "amax", "amin"):
        for inc in (True, False):
            out.append(case("index_reduce", u((4, 3)), 0, idx([0, 2, 0, 3]), u((4, 3)), red, include_self=inc,
                            id=f"{red} include_self={inc}"))
    out.append(case("Tensor.index_reduce", ints((2, 3), 1, 5), 1, idx([0, 0]), ints((2, 2), 1, 5), "prod",
                    id="method int64 prod"))
    out.append(case("Tensor.index_reduce_", u((3, 2)), 0, idx([1, 1]), u((2, 2)), "amax", id="in place"))
    out.append(case("index_reduce", u((3, 4)), 0, idx([0]), u((1, 4)), "sum", id="error: sum"))
    out.append(case("index_reduce", distinct((4, 3)), 0, idx([0, 2, 0, 1]), distinct((4, 3)), "amax", id="grad amax",
                    grad=True))
    out.append(case("index_reduce", u((3, 2), 0.5, 2.0), 0, idx([1, 1, 0]), u((3, 2), 0.5, 2.0), "prod",
                    id="grad prod", grad=True))
    out.append(case("index_reduce", u((3, 2)), 0, idx([1, 2]), u((2, 2)), "mean", include_self=False,
                    id="grad mean", grad=True))
    return out


@golden("put")
def _put():
    return [case("put", u((3, 4)), idx([0, 5, 11]), u((3,)), id="flat positions"),
            case("put", u((3, 4)), idx([[1, -1]]), u((1, 2)), id="negative, 2-D index"),
            case("put", u((2, 3)), idx([1, 1, 4]), u((3,)), True, id="accumulate duplicates"),
            case("put", tr(u((4, 3))), idx([1, 6]), u((2,)), id="transposed input (row-major positions)"),
            case("Tensor.put", ints((4,)), idx([3]), ints((1,)), accumulate=True, id="method int64 accumulate"),
            case("Tensor.put_", u((2, 2)), idx([0, 3]), u((2,)), id="in place"),
            case("put", u((3, 4)), idx([20]), u((1,)), id="error: out of range"),
            case("put", u((3, 4)), idx([1, 2]), u((1,)), id="error: sizes"),
            case("put", u((3, 4)), idx([1, 7]), u((2,)), id="grad", grad=True),
            case("put", u((3, 4)), idx([1, 1, 7]), u((3,)), True, id="grad accumulate", grad=True)]


@golden("fill_diagonal_")
def _fill_diagonal():
    return [case("Tensor.fill_diagonal_", u((3, 3)), 5.0, id="square"),
            case("Tensor.fill_diagonal_", u((2, 4)), -1.0, id="wide"),
            case("Tensor.fill_diagonal_", u((7, 3)), 2.0, id="tall no wrap"),
            case("Tensor.fill_diagonal_", u((7, 3)), 2.0, True, id="tall wrap"),
            case("Tensor.fill_diagonal_", u((3, 3, 3)), 0.5, id="3-D cube"),
            case("Tensor.fill_diagonal_", ints((3, 3)), 7, id="int64"),
            case("Tensor.fill_diagonal_", tr(u((4, 3))), 1.0, id="transposed"),
            case("Tensor.fill_diagonal_", u((3,)), 1.0, id="error: 1-D"),
            case("Tensor.fill_diagonal_", u((2, 3, 4)), 1.0, id="error: unequal dims"),
            case("Tensor.fill_diagonal_", nonleaf(u((3, 4))), 1.0, id="grad", grad=True)]


@golden("view_copy")
def _view_copy():
    x = u((2, 3))
    return [case("view_copy", x, (3, 2), id="view_copy"),
            case("permute_copy", u((2, 3, 4)), (2, 0, 1), id="permute_copy"),
            case("Tensor.is_contiguous", V(u((2, 3, 4)), ("permute", 2, 0, 1)), id="permute is not contiguous"),
            case("expand_copy", u((3, 1)), (3, 4), id="expand_copy"),
            case("squeeze_copy", u((2, 1, 3, 1)), id="squeeze_copy all"),
            case("squeeze_copy", u((2, 1, 3, 1)), 1, id="squeeze_copy dim"),
            case("unsqueeze_copy", u((2, 3)), -1, id="unsqueeze_copy"),
            case("t_copy", u((2, 3)), id="t_copy"),
            case("transpose_copy", u((2, 3, 4)), 0, 2, id="transpose_copy"),
            case("select_copy", u((2, 3)), 1, -1, id="select_copy"),
            case("slice_copy", u((5, 2)), 0, 1, None, 2, id="slice_copy"),
            case("slice_copy", u((5, 2)), id="slice_copy defaults"),
            case("split_copy", u((5,)), 2, id="split_copy"),
            case("unbind_copy", u((2, 3)), 1, id="unbind_copy"),
            case("diagonal_copy", u((3, 4)), 1, id="diagonal_copy"),
            case("narrow_copy", u((3, 4)), 1, 1, 2, id="narrow_copy"),
            case("Tensor.narrow_copy", ints((5,)), 0, 2, 3, id="Tensor.narrow_copy int64"),
            case("detach_copy", u((2,)), id="detach_copy"),
            case("alias_copy", u((2, 2)), id="alias_copy"),
            case("as_strided_copy", u((6,)), (2, 2), (1, 2), 1, id="as_strided_copy"),
            case("as_strided", u((6,)), (2, 2), (2, 1), id="as_strided"),
            case("split_with_sizes_copy", u((5, 2)), [2, 3], id="split_with_sizes_copy"),
            case("unfold_copy", u((6,)), 0, 3, 2, id="unfold_copy"),
            case("unsafe_split", u((5,)), 2, id="unsafe_split"),
            case("Tensor.unsafe_chunk", u((5, 2)), 2, 1, id="unsafe_chunk"),
            case("unsafe_split_with_sizes", u((5,)), [1, 4], id="unsafe_split_with_sizes"),
            case("unsafe_split", u((5, 2)), 2, id="grad unsafe_split", grad=True),
            case("Tensor.mH", u((2, 3, 4)), id="mH"),
            case("Tensor.H", u((2, 3)), id="H"),
            case("Tensor.adjoint", u((2, 3)), id="adjoint"),
            case("Tensor.mH", u((3,)), id="error: mH of 1-D"),
            case("Tensor.H", u((2, 3, 4)), id="error: H of 3-D"),
            case("Tensor.mH", u((2, 3)), id="grad mH", grad=True),
            case("Tensor.dim_order", V(u((2, 1, 3)), ("permute", 2, 0, 1)), id="dim_order permuted"),
            case("Tensor.dim_order", u((2, 3)), id="dim_order contiguous"),
            case("Tensor.stride", V(u((1,)), ("new_empty_strided", (2, 2), (1, 2))), id="new_empty_strided"),
            case("typename", u((2,)), id="typename float"),
            case("typename", ints((2,)), id="typename int64"),
            case("typename", 3, id="typename int"),
            case("get_device", V(u((2,)), ("cpu",)), id="torch.get_device"),
            case("is_signed", ints((2,)), id="torch.is_signed"),
            case("view_copy", u((2, 3)), (4, 2), id="error: view_copy size"),
            case("view_copy", u((2, 3)), (3, 2), id="grad view_copy", grad=True),
            case("permute_copy", u((2, 3)), (1, 0), id="grad permute_copy", grad=True),
            case("expand_copy", u((1, 3)), (2, 3), id="grad expand_copy", grad=True),
            case("diagonal_copy", u((3, 3)), id="grad diagonal_copy", grad=True),
            case("Tensor.stride", V(u((2, 3)), ("t",)), id="t is a strided view"),
            case("detach", u((2,)), id="torch.detach"),
            case("detach_", V(u((2,)), ("mul", 1.0)), id="torch.detach_"),
            case("Tensor.ndimension", u((2, 3, 1)), id="ndimension"),
            case("Tensor.nbytes", u((2, 3)), id="nbytes float32"),
            case("Tensor.nbytes", ints((5,)), id="nbytes int64"),
            case("Tensor.itemsize", ints((5,)), id="itemsize int64"),
            case("Tensor.get_device", V(u((2,)), ("cpu",)), id="get_device on cpu"),
            case("Tensor.is_signed", ints((2,)), id="is_signed int64"),
            case("Tensor.is_signed", np.array([True]), id="is_signed bool"),
            case("Tensor.is_signed", u((2,)), id="is_signed float"),
            case("is_complex", u((2,)), id="is_complex"),
            case("is_nonzero", f([2.0]), id="is_nonzero"),
            case("Tensor.is_nonzero", f([0.0]), id="is_nonzero zero"),
            case("is_nonzero", ints(()), id="is_nonzero int 0-d"),
            case("is_nonzero", u((2,)), id="error: is_nonzero two values"),
            case("is_nonzero", u((0,)), id="error: is_nonzero empty"),
            case("is_same_size", u((2, 3)), u((2, 3)), id="is_same_size"),
            case("Tensor.is_same_size", u((2, 3)), u((3, 2)), id="is_same_size differs"),
            case("is_conj", u((2,)), id="is_conj"),
            case("is_neg", u((2,)), id="is_neg"),
            case("conj", u((2,)), id="conj"),
            case("conj_physical", u((2,)), id="conj_physical"),
            case("resolve_conj", u((2,)), id="resolve_conj"),
            case("resolve_neg", u((2,)), id="resolve_neg"),
            case("Tensor.is_pinned", u((2,)), id="is_pinned"),
            case("Tensor.pin_memory", u((2,)), id="error: pin_memory without an accelerator"),
            case("Tensor.is_shared", u((2,)), id="is_shared"),
            case("Tensor.is_shared", V(u((2,)), ("share_memory_",)), id="is_shared after share_memory_"),
            case("Tensor.new", u((2,)), 2, 3, id="new(sizes) shape [type only]", random=True),
            case("Tensor.new", u((2,)), [1, 2], id="new(data)"),
            case("Tensor.new", ints((2,)), (4, 5), id="new(tuple) is data"),
            case("Tensor.new", u((2,)), id="new() [type only]", random=True)]


@golden("resize_")
def _resize():
    return [case("Tensor.resize_", u((6,)), 2, 2, id="smaller keeps the leading values"),
            case("Tensor.resize_", u((2, 3)), (3, 2), id="same size, tuple"),
            case("Tensor.__getitem__", V(u((2, 2)), ("clone",), ("resize_", 2, 3)), (slice(0, 1),), id="larger keeps old values"),
            case("Tensor.resize_", ints((4,)), 1, id="int64"),
            case("Tensor.resize_as_", u((2, 3)), u((6,)), id="resize_as_"),
            case("resize_as_", u((4,)), u((2, 2)), id="torch.resize_as_"),
            case("Tensor.resize_", u((2, 3)), 2, -1, id="error: negative size [type only]")]


# ---------------------------------------------------------------- construction

@golden("logspace")
def _logspace():
    out = []
    for args, kw in [((0, 3, 4), {}), ((-2, 2, 5), {}), ((0, 3, 4), {"base": 2.0}), ((1, 1, 1), {}), ((0, 1, 0), {}),
                     ((0.5, -1.5, 7), {"base": 3.0}), ((0, 3, 4), {"dtype": "int64"}), ((0, 2, 3), {"base": 10})]:
        out.append(case("logspace", *args, id=f"{args} {kw}", **kw))
    out.append(case("logspace", 0, 1, -1, id="error: negative steps"))
    out.append(case("range", 4, id="error: range without end [type only]"))
    for args, kw in [((0, 4), {}), ((1, 2, 0.5), {}), ((0, 3), {"dtype": "int64"}), ((3, 0, -1), {}),
                     ((0, 1, 0.3), {})]:
        out.append(case("range", *args, id=f"range {args} {kw}", **kw))
    out.append(case("range", 0, 3, 0, id="error: range step 0"))
    out.append(case("range", 3, 0, id="error: range bounds and step sign"))
    return out


@golden("hann_window")
def _windows():
    out = []
    for fn in ("hann_window", "hamming_window", "blackman_window", "bartlett_window", "kaiser_window"):
        for n in (0, 1, 2, 5, 8):
            out.append(case(fn, n, id=f"{fn} {n}"))
            out.append(case(fn, n, False, id=f"{fn} {n} symmetric"))
        out.append(case(fn, -1, id=f"error: {fn} negative length"))
        out.append(case(fn, 4, dtype="int64", id=f"error: {fn} int dtype [type only]"))
    out.append(case("hamming_window", 6, True, 0.5, 0.5, id="hamming alpha beta"))
    out.append(case("kaiser_window", 6, False, 5.0, id="kaiser beta 5"))
    out.append(case("kaiser_window", 7, periodic=False, beta=0.5, id="kaiser keywords"))
    return out


@golden("tril_indices")
def _tri_indices():
    out = []
    for fn in ("tril_indices", "triu_indices"):
        for args in [(3, 3), (3, 4, 1), (4, 3, -1), (3, 3, 5), (3, 3, -5), (0, 3), (1, 1)]:
            out.append(case(fn, *args, id=f"{fn} {args}"))
        out.append(case(fn, 2, 3, dtype="int32", id=f"{fn} int32"))
        out.append(case(fn, -1, 3, id=f"error: {fn} negative row"))
        out.append(case(fn, 3, -1, id=f"error: {fn} negative col"))
    return out


@golden("scalar_tensor")
def _scalar_tensor():
    return [case("scalar_tensor", 3, id="int gives float"),
            case("scalar_tensor", -2.5, id="float"),
            case("scalar_tensor", True, id="bool gives float"),
            case("scalar_tensor", 4, dtype="int64", id="dtype int64"),
            case("scalar_tensor", "a", id="error: not a number"),
            case("numel", u((2, 3, 4)), id="torch.numel"),
            case("numel", u(()), id="torch.numel 0-d"),
            case("fill", u((2, 3)), 1.5, id="torch.fill"),
            case("fill", ints((3,)), 4, id="torch.fill int64"),
            case("fill", u((2,)), f(7.0), id="torch.fill 0-d tensor value"),
            case("fill_", u((2, 2)), -1.0, id="torch.fill_"),
            case("zero_", u((2, 2)), id="torch.zero_"),
            case("fill", u((2,)), u((2,)), id="error: fill with a 1-D value"),
            case("fill", u((2,)), f(7.0), id="grad torch.fill 0-d tensor value", grad=True)]


@golden("asarray")
def _asarray():
    return [case("asarray", u((2, 3)), id="tensor"),
            case("asarray", [1, 2, 3], id="int list"),
            case("asarray", [[1.5, 2.0]], id="float list"),
            case("asarray", 3.0, id="number"),
            case("asarray", ints((3,)), dtype="float32", id="tensor to float32"),
            case("asarray", u((2,)), copy=True, id="copy=True"),
            case("asarray", u((2,)), copy=True, id="grad copy=True", grad=True),
            case("asarray", [1, 2], dtype="float32", id="list with dtype"),
            case("asarray", u((2,)), dtype="int64", copy=False, id="error: copy=False needs a copy [type only]")]


@golden("frombuffer")
def _frombuffer():
    data = list(np.arange(1, 17, dtype=np.float32).tobytes())
    ints32 = list(np.array([1, -2, 3, 400000], dtype=np.int32).tobytes())
    return [case("_frombuffer", data, dtype="float32", id="float32"),
            case("_frombuffer", data, dtype="float32", count=3, offset=8, id="count and offset"),
            case("_frombuffer", ints32, dtype="int32", id="int32"),
            case("_frombuffer", data[:6], dtype="float32", id="error: not a multiple of the item size"),
            case("_frombuffer", data, dtype="float32", count=20, id="error: count too large"),
            case("_frombuffer", data, dtype="float32", offset=64, id="error: offset too large")]


@golden("empty_strided")
def _empty_strided():
    return [case("empty_strided", (2, 3), (1, 2), id="shape [type only]", random=True),
            case("empty_permuted", (2, 3, 4), (0, 2, 1), id="empty_permuted shape", random=True),
            case("empty_permuted", (2, 3), (0, 0), id="error: empty_permuted duplicate dims"),
            case("empty_permuted", (2, 3), (0,), id="error: empty_permuted lengths [type only]"),
            case("_strides", "empty_strided", (2, 3), (1, 2), id="empty_strided strides"),
            case("_strides", "empty_strided", (2, 0, 3), (1, 1, 2), id="empty_strided empty strides"),
            case("_strides", "empty_permuted", (2, 3, 4), (0, 2, 1), id="empty_permuted strides"),
            case("_strides", "empty_permuted", (2, 3, 4, 5), (0, 2, 3, 1), id="empty_permuted channels last")]


# ---------------------------------------------------------------- statistics

@golden("cov")
def _cov():
    w = ints((5,), 0, 3)
    a = u((5,), 0.1, 2.0)
    return [case("cov", u((3, 5)), id="3 variables"),
            case("cov", u((5,)), id="1-D"),
            case("cov", u((1, 5)), id="one row gives 0-d"),
            case("cov", u((3, 5)), correction=0, id="correction 0"),
            case("cov", u((3, 5)), correction=2, id="correction 2"),
            case("cov", u((2, 5)), fweights=w, id="fweights"),
            case("cov", u((2, 5)), aweights=a, id="aweights"),
            case("cov", u((2, 5)), correction=1, fweights=w, aweights=a, id="both weights"),
            case("cov", u((2, 5)), correction=0, aweights=a, id="aweights correction 0"),
            case("Tensor.cov", ints((2, 4)), id="method int64"),
            case("cov", u((2, 1)), id="one observation warns"),
            case("cov", u((2, 2, 2)), id="error: 3-D"),
            case("cov", u((2, 4)), correction=1.5, id="error: float correction"),
            case("cov", u((2, 4)), fweights=u((4,)), id="error: float fweights"),
            case("cov", u((2, 4)), fweights=idx([1, -2, 3, 4]), id="error: negative fweights"),
            case("cov", u((2, 4)), aweights=f([1, -2, 3, 4]), id="error: negative aweights"),
            case("cov", u((2, 4)), fweights=idx([1, 2]), id="error: fweights numel"),
            case("cov", u((3, 5)), id="grad", grad=True),
            case("cov", u((2, 5)), fweights=w, aweights=a, id="grad weighted", grad=True)]


@golden("corrcoef")
def _corrcoef():
    return [case("corrcoef", u((3, 5)), id="3 variables"),
            case("corrcoef", u((5,)), id="1-D gives 1"),
            case("Tensor.corrcoef", ints((2, 4)), id="method int64"),
            case("corrcoef", u((2, 2, 2)), id="error: 3-D"),
            case("corrcoef", u((3, 6)), id="grad", grad=True)]


@golden("trapezoid")
def _trapezoid():
    x = np.sort(u((5,))).astype(np.float32)
    return [case("trapezoid", u((5,)), id="1-D"),
            case("trapezoid", u((3, 5)), id="2-D last dim"),
            case("trapezoid", u((3, 5)), dim=0, id="dim 0"),
            case("trapezoid", u((3, 5)), dx=0.5, id="dx"),
            case("trapezoid", u((3, 5)), x, id="x 1-D"),
            case("trapezoid", u((3, 5)), np.sort(u((3, 5)), axis=1), id="x same shape"),
            case("trapezoid", u((1,)), id="one sample"),
            case("trapezoid", u((2, 0)), id="no samples"),
            case("trapezoid", ints((4,)), id="int64"),
            case("trapz", u((3, 4)), id="trapz"),
            case("trapz", u((3, 4)), dx=2.0, id="trapz dx"),
            case("trapz", u((4, 3)), u((4,)), dim=0, id="trapz x dim 0"),
            case("trapezoid", u(()), id="error: 0-d"),
            case("trapezoid", u((3, 5)), id="grad", grad=True),
            case("trapezoid", u((3, 5)), x, id="grad with x", grad=True)]


@golden("cumulative_trapezoid")
def _cumulative_trapezoid():
    x = np.sort(u((5,))).astype(np.float32)
    return [case("cumulative_trapezoid", u((5,)), id="1-D"),
            case("cumulative_trapezoid", u((3, 5)), dim=0, id="dim 0"),
            case("cumulative_trapezoid", u((3, 5)), dx=0.25, id="dx"),
            case("cumulative_trapezoid", u((3, 5)), x, id="x 1-D"),
            case("cumulative_trapezoid", u((1,)), id="one sample"),
            case("cumulative_trapezoid", ints((4,)), id="int64"),
            case("cumulative_trapezoid", u((3, 5)), id="grad", grad=True)]


@golden("histogram")
def _histogram():
    data = f([0.5, 1.0, 1.0, 2.5, 3.0, -1.0, 4.0, 2.0])
    pts = f([[0.0, 1.0], [1.0, 2.0], [2.0, 0.5], [0.5, 0.5]])
    return [case("histogram", data, 4, id="4 bins over the data"),
            case("histogram", data, 3, range=(0.0, 3.0), id="range (outside ignored, last edge in)"),
            case("histogram", data, f([0.0, 1.0, 2.5, 10.0]), id="bin edges tensor"),
            case("histogram", data, 4, weight=u((8,), 0, 1), id="weights"),
            case("histogram", data, 4, density=True, id="density"),
            case("histogram", data, f([-1.0, 0.0, 2.0, 4.0]), weight=u((8,), 0, 1), density=True,
                 id="edges, weights, density"),
            case("histogram", f([2.0, 2.0]), 2, id="all equal values"),
            case("histogram", u((3, 4)), 5, id="2-D input"),
            case("Tensor.histogram", u((10,)), id="method default 100 bins"),
            case("histogram", idx([1, 2]), 2, id="error: int64 input"),
            case("histogram", data, 2, range=(3.0, 1.0), id="error: min > max"),
            case("histogram", data, 0, id="error: zero bins"),
            case("histogramdd", pts, [2, 3], id="histogramdd bins per dim"),
            case("histogramdd", pts, 2, range=[0.0, 2.0, 0.0, 2.0], density=True, id="histogramdd range density"),
            case("histogramdd", pts, [f([0.0, 1.0, 2.0]), f([0.0, 2.0])], weight=f([1.0, 2.0, 3.0, 4.0]),
                 id="histogramdd edges and weights"),
            case("histogramdd", u((2, 5, 3)), 2, id="histogramdd batched points in 3-D"),
            case("histogramdd", pts, [2], id="error: histogramdd bins per dim"),
            case("histogramdd", pts, 2, range=[0.0, 1.0], id="error: histogramdd range length"),
            case("histogramdd", u((3,)), 2, id="error: histogramdd 1-D")]


@golden("nanmedian")
def _nanmedian():
    x = distinct((4, 5))
    x[0, 1] = x[2, 0] = x[2, 3] = NAN
    x[3, :] = NAN
    return [case("nanmedian", x, id="all elements"),
            case("nanmedian", x, 1, id="dim 1"),
            case("nanmedian", x, 0, True, id="dim 0 keepdim"),
            case("Tensor.nanmedian", distinct((6,)), id="method no NaN"),
            case("nanmedian", f([NAN, NAN]), id="all NaN"),
            case("nanmedian", ints((5,)), id="int64 is median"),
            case("nanmedian", f(3.0), 0, id="0-d with dim"),
            case("nanmedian", x, 3, id="error: dim out of range"),
            case("nanmedian", u((0, 3)), 0, id="error: empty dim"),
            case("nanmedian", x, 1, id="grad", grad=True),
            case("nanmedian", x, id="grad all", grad=True)]


# ---------------------------------------------------------------- random (shapes and argument checks only)

@golden("exponential_")
def _exponential():
    out = []
    for fn, args in [("exponential_", ()), ("exponential_", (2.0,)), ("geometric_", (0.3,)), ("log_normal_", ()),
                     ("log_normal_", (0.0, 0.5)), ("cauchy_", ()), ("cauchy_", (1.0, 2.0))]:
        out.append(case(f"Tensor.{fn}", u((3, 4)), *args, id=f"{fn} {args}", random=True))
    out.append(case("Tensor.exponential_", u((3,)), -1.0, id="error: exponential_ lambda"))
    out.append(case("Tensor.geometric_", u((3,)), 1.5, id="error: geometric_ p"))
    out.append(case("Tensor.log_normal_", u((3,)), 0.0, -1.0, id="error: log_normal_ std"))
    out.append(case("Tensor.cauchy_", u((3,)), 0.0, -1.0, id="error: cauchy_ sigma [type only]"))
    return out


@golden("poisson")
def _poisson():
    return [case("poisson", u((3, 4), 0, 5), id="rates", random=True),
            case("poisson", np.zeros((3,), np.float32), id="zero rates give zeros"),
            case("poisson", f([-1.0]), id="error: negative rate"),
            case("binomial", f([3.0, 5.0, 0.0]), f([1.0, 0.0, 0.5]), id="binomial certain outcomes"),
            case("binomial", u((2, 3), 0, 10).round(), u((2, 3), 0, 1), id="binomial shape", random=True)]


@golden("gradient")
def _gradient():
    x = np.sort(u((5,))).astype(np.float32) + np.arange(5, dtype=np.float32)  # increasing coordinates
    return [case("gradient", u((5,)), id="1-D"),
            case("gradient", u((5,)), spacing=2.0, id="spacing 2"),
            case("gradient", u((5,)), edge_order=2, id="edge_order 2"),
            case("gradient", u((5,)), spacing=(x,), id="coordinates"),
            case("gradient", u((5,)), spacing=(x,), edge_order=2, id="coordinates edge_order 2"),
            case("gradient", u((3, 4)), id="2-D all dims"),
            case("gradient", u((3, 4)), dim=1, id="2-D dim 1"),
            case("gradient", u((3, 4)), spacing=[2.0, 3.0], id="spacing per dim"),
            case("gradient", u((2,)), id="two samples"),
            case("gradient", ints((4,)), id="int64 gives float"),
            case("gradient", u((1,)), id="error: one sample"),
            case("gradient", u((5,)), edge_order=3, id="error: edge_order 3"),
            case("gradient", u((5,)), spacing=[1.0, 2.0], id="error: spacing length"),
            case("gradient", u((2,)), edge_order=2, id="error: too short for edge_order 2"),
            case("gradient", u((3, 5)), dim=1, edge_order=2, id="grad", grad=True),
            case("gradient", u((5,)), spacing=(x,), id="grad coordinates", grad=True)]
