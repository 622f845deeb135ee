"""Golden cases: torch.linalg's compositions and the LU family (ops/_linalg_more.py, ops/_linalg_lu.py,
ops/_linalg_legacy.py; imported by cases_linalg.py)."""
from __future__ import annotations

import numpy as np

from cases import case, golden, ints
from cases_linalg_decomp import SINGULAR, gen, svdin, sym, u


# ---- compositions (ops/_linalg_more.py) ------------------------------------------------------------
@golden("linalg.matmul")
def _linalg_matmul():
    return [case("linalg.matmul", u((2, 3, 4)), u((4, 5)), id="batched"), case("linalg.matmul", u((3,)), u((3,)),
                                                                                   id="dot"),
            case("linalg.matmul", u((3, 4)), u((5, 6)), id="error: sizes"),
            case("linalg.matmul", u((3, 4)), u((4, 2)), id="grad", grad=True)]


@golden("linalg.diagonal")
def _linalg_diagonal():
    return [case("linalg.diagonal", u((3, 4)), id="default"), case("linalg.diagonal", u((2, 3, 4)), offset=-1,
                                                                   id="offset -1"),
            case("linalg.diagonal", u((2, 3, 4)), dim1=0, dim2=2, id="dims 0 2"),
            case("linalg.diagonal", u((3,)), id="error: 1-D"),
            case("linalg.diagonal", u((3, 4)), offset=1, id="grad", grad=True)]


@golden("linalg.vecdot")
def _vecdot():
    return [case("linalg.vecdot", u((3, 4)), u((4,)), id="broadcast"), case("linalg.vecdot", u((3, 4)), u((3, 4)),
                                                                             dim=0, id="dim 0"),
            case("linalg.vecdot", u((3,)), u((4,)), id="error: sizes"),
            case("linalg.vecdot", u((2, 3)), u((2, 3)), id="grad", grad=True)]


@golden("linalg.multi_dot")
def _multi_dot():
    return [case("linalg.multi_dot", [u((2, 3)), u((3, 4)), u((4, 5))], id="three matrices"),
            case("linalg.multi_dot", [u((3,)), u((3, 4)), u((4,))], id="vectors at the ends"),
            case("linalg.multi_dot", [u((3,)), u((3,))], id="two vectors"),
            case("linalg.multi_dot", [u((3, 3))], id="error: one tensor"),
            case("linalg.multi_dot", [u((2, 3, 3)), u((3, 3))], id="error: 3-D first"),
            case("linalg.multi_dot", [u((2, 3)), u((4, 3))], id="error: sizes"),
            case("linalg.multi_dot", [u((2, 3)), u((3, 4)), u((4,))], id="grad", grad=True)]


@golden("linalg.solve_ex")
def _solve_ex():
    info = "lambda A, B, **k: torch.linalg.solve_ex(A, B, **k).info"
    return [case("linalg.solve_ex", gen((2, 3, 3)), u((2, 3, 2)), id="batch"),
            case("linalg.solve_ex", gen((3, 3)), u((2, 3)), left=False, id="left=False"),
            case("_module", info, np.stack([gen((3, 3)), SINGULAR]), u((2, 3)), id="info"),
            case("linalg.solve_ex", SINGULAR, u((3,)), check_errors=True, id="error: check_errors"),
            case("linalg.solve_ex", gen((3, 3)), u((3,)), id="grad", grad=True)]


@golden("linalg.solve_triangular")
def _solve_triangular():
    up, lo = np.triu(gen((4, 4))) + np.tril(u((4, 4)), -1), np.tril(gen((2, 4, 4))) + np.triu(u((2, 4, 4)), 1)
    return [case("linalg.solve_triangular", up, u((4, 2)), upper=True, id="upper"),
            case("linalg.solve_triangular", lo, u((2, 4, 3)), upper=False, id="lower batch"),
            case("linalg.solve_triangular", up, u((3, 4)), upper=True, left=False, id="left=False"),
            case("linalg.solve_triangular", lo, u((4, 1)), upper=False, unitriangular=True, id="unitriangular"),
            case("linalg.solve_triangular", up, u((3, 2)), upper=True, id="error: sizes"),
            case("linalg.solve_triangular", up, u((4, 2)), id="error: upper missing [type only]"),
            case("linalg.solve_triangular", up, u((4, 2)), upper=True, id="grad", grad=True)]


@golden("linalg.cond")
def _cond():
    out = [case("linalg.cond", svdin((2, 4, 4)), id="default"), case("linalg.cond", svdin((5, 3)), id="5x3"),
           case("linalg.cond", svdin((4, 4)), p=-2, id="p=-2")]
    out += [case("linalg.cond", gen((3, 3)), p=p, id=f"p={p!r}") for p in (1, -1, float("inf"), float("-inf"), "fro",
                                                                          "nuc")]
    out += [case("linalg.cond", gen((3, 3)), p="x", id="error: p"), case("linalg.cond", u((3,)), id="error: 1-D"),
            case("linalg.cond", svdin((4, 4)), id="grad", grad=True)]
    return out


@golden("linalg.tensorinv")
def _tensorinv():
    return [case("linalg.tensorinv", gen((6, 6)).reshape(6, 2, 3), ind=1, id="ind=1"),
            case("linalg.tensorinv", gen((4, 4)).reshape(2, 2, 2, 2), id="ind=2"),
            case("linalg.tensorinv", u((4, 3)), ind=1, id="error: not square"),
            case("linalg.tensorinv", gen((4, 4)).reshape(2, 2, 2, 2), id="grad", grad=True)]


@golden("linalg.tensorsolve")
def _tensorsolve():
    return [case("linalg.tensorsolve", gen((6, 6)).reshape(2, 3, 6), u((2, 3)), id="2x3x6"),
            case("linalg.tensorsolve", gen((6, 6)).reshape(6, 2, 3), u((6,)), id="6x2x3"),
            case("linalg.tensorsolve", gen((6, 6)).reshape(2, 3, 6), u((2, 3)), dims=(0,), id="dims=(0,)"),
            case("linalg.tensorsolve", gen((6, 6)).reshape(2, 3, 6), u((2, 3)), id="grad", grad=True)]


@golden("linalg.vander")
def _vander():
    return [case("linalg.vander", u((4,)), id="default N"), case("linalg.vander", u((2, 3)), N=5, id="batch N=5"),
            case("linalg.vander", ints((3,)), id="int64"), case("linalg.vander", u((3,)), N=1, id="error: N=1"),
            case("linalg.vander", u((3,)), N=4, id="grad", grad=True),
            case("vander", u((4,)), id="torch.vander"),
            case("vander", ints((3,)), 4, True, id="torch.vander increasing"),
            case("vander", u((3,)), 0, id="torch.vander N=0"), case("vander", u((3,)), 1, id="torch.vander N=1"),
            case("vander", u((2, 2)), id="error: torch.vander 2-D"), case("vander", u((2,)), -1, id="error: N < 0")]


@golden("linalg.matrix_exp")
def _matrix_exp():
    return [case("linalg.matrix_exp", u((3, 3)) / 4, id="small norm"), case("linalg.matrix_exp", u((2, 4, 4)),
                                                                             id="batch, squarings"),
            case("linalg.matrix_exp", np.zeros((2, 2), np.float32), id="zeros"),
            case("linalg.matrix_exp", u((1, 1)), id="1x1"), case("linalg.matrix_exp", sym((40, 40)) / 4, id="40x40"),
            case("linalg.matrix_exp", u((2, 3)), id="error: not square"),
            case("linalg.matrix_exp", u((3, 3)) / 2, id="grad", grad=True),
            case("matrix_exp", u((3, 3)), id="torch.matrix_exp"), case("Tensor.matrix_exp", u((3, 3)), id="method")]


@golden("linalg.svdvals")
def _svdvals():  # with the spectral matrix norms, which are svdvals underneath
    out = [case("linalg.svdvals", svdin(s), id=f"{s}") for s in [(3, 3), (5, 3), (2, 3, 5), (40, 40)]]
    out += [case("linalg.svdvals", u((3,)), id="error: 1-D"),
            case("linalg.svdvals", svdin((4, 3)), id="grad", grad=True)]
    for o in (2, -2, "nuc"):
        out.append(case("linalg.matrix_norm", svdin((2, 4, 3)), ord=o, id=f"matrix_norm ord={o!r}"))
    out += [case("linalg.matrix_norm", svdin((4, 2, 3)), ord=2, dim=(0, 2), keepdim=True, id="matrix_norm dims"),
            case("linalg.norm", svdin((4, 3)), ord="nuc", id="linalg.norm nuc"),
            case("linalg.matrix_norm", svdin((4, 4)), ord=3, id="error: matrix_norm ord=3"),
            case("linalg.matrix_norm", svdin((4, 3)), ord="nuc", id="grad nuc", grad=True)]
    return out


# ---- LU (ops/_linalg_lu.py) -----------------------------------------------------------------------
LU_SOLVE = "lambda A, B, **k: torch.linalg.lu_solve(*torch.linalg.lu_factor(A), B, **k)"


@golden("linalg.lu_factor")
def _lu_factor():
    out = [case("linalg.lu_factor", gen(s), id=f"{s}") for s in [(1, 1), (3, 3), (2, 4, 4), (40, 40)]]
    out += [case("linalg.lu_factor", u((3, 5)), id="3x5"), case("linalg.lu_factor", u((2, 5, 3)), id="5x3"),
            case("linalg.lu_factor", SINGULAR, id="error: singular"),
            case("linalg.lu_factor", np.stack([gen((3, 3)), np.zeros((3, 3), np.float32)]), id="error: batch 1"),
            case("linalg.lu_factor", u((3,)), id="error: 1-D"), case("linalg.lu_factor", ints((3, 3)), id="error: int"),
            case("linalg.lu_factor", gen((3, 3)), pivot=False, id="error: pivot=False"),
            case("linalg.lu_factor", gen((3, 3)), id="grad", grad=True),
            case("linalg.lu_factor", gen((2, 4, 4)), id="grad batch", grad=True)]
    return out


@golden("linalg.lu_factor_ex")
def _lu_factor_ex():
    info = "lambda A, **k: torch.linalg.lu_factor_ex(A, **k).info"
    return [case("linalg.lu_factor_ex", gen((2, 3, 3)), id="batch"),
            case("_module", info, np.stack([gen((3, 3)), SINGULAR]), id="info"),
            case("linalg.lu_factor_ex", SINGULAR, check_errors=True, id="error: check_errors"),
            case("linalg.lu_factor_ex", gen((3, 3)), id="grad", grad=True)]


@golden("linalg.lu")
def _lu():
    unpack = "lambda A: torch.lu_unpack(*torch.linalg.lu_factor(A))"
    out = [case("linalg.lu", gen(s), id=f"{s}") for s in [(1, 1), (3, 3), (2, 4, 4), (40, 40)]]
    out += [case("linalg.lu", u((3, 5)), id="3x5"), case("linalg.lu", u((5, 3)), id="5x3"),
            case("linalg.lu", SINGULAR, id="singular (no error)"), case("linalg.lu", u((3,)), id="error: 1-D"),
            case("_module", unpack, gen((2, 4, 4)), id="torch.lu_unpack"),
            case("_module", unpack, u((3, 5)), id="torch.lu_unpack 3x5"),
            case("linalg.lu", gen((3, 3)), id="grad", grad=True),
            case("linalg.lu", gen((2, 4, 4)), id="grad batch", grad=True)]
    return out


@golden("linalg.lu_solve")
def _lu_solve():
    out = [case("_module", LU_SOLVE, gen((3, 3)), u((3, 2)), id="3x3"),
           case("_module", LU_SOLVE, gen((2, 4, 4)), u((2, 4, 1)), id="batch"),
           case("_module", LU_SOLVE, gen((40, 40)), u((40, 3)), id="40x40"),
           case("_module", LU_SOLVE, gen((3, 3)), u((3, 2)), adjoint=True, id="adjoint"),
           case("_module", LU_SOLVE, gen((3, 3)), u((2, 3)), left=False, id="left=False"),
           case("_module", LU_SOLVE, gen((3, 3)), u((2, 3)), left=False, adjoint=True, id="left=False adjoint"),
           case("_module", LU_SOLVE, gen((3, 3)), u((3,)), id="error: B 1-D"),
           case("_module", LU_SOLVE, gen((3, 3)), u((4, 2)), id="error: sizes"),
           case("_module", LU_SOLVE, gen((3, 3)), u((3, 2)), id="grad", grad=True),
           case("_module", LU_SOLVE, gen((3, 3)), u((3, 2)), adjoint=True, id="grad adjoint", grad=True)]
    return out


# ---- Householder (ops/_linalg_householder.py) ---------------------------------------------------------
HH = "lambda A: torch.linalg.householder_product(*torch.geqrf(A))"


@golden("geqrf")
def _geqrf():
    return [case("geqrf", u(s), id=f"{s}") for s in [(1, 1), (3, 3), (5, 3), (3, 5), (2, 4, 3), (40, 40)]] + \
        [case("Tensor.geqrf", u((3, 2)), id="method"), case("geqrf", u((3,)), id="error: 1-D")]


@golden("linalg.householder_product")
def _householder_product():
    return [case("_module", HH, u(s), id=f"Q of {s}") for s in [(3, 3), (5, 3), (2, 4, 3), (40, 33)]] + \
        [case("linalg.householder_product", u((5, 3)), u((2,)), id="k < n"),
         case("linalg.householder_product", u((2, 4, 3)), u((2, 3)), id="batch"),
         case("linalg.householder_product", u((3, 5)), u((2,)), id="error: m < n"),
         case("linalg.householder_product", u((5, 3)), u((4,)), id="error: tau too long"),
         case("linalg.householder_product", u((2, 5, 3)), u((3, 3)), id="error: batch dims"),
         case("linalg.householder_product", u((5, 3)), u((3,)) / 2, id="grad", grad=True)]
