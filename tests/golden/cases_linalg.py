"""Golden cases: matrix products and einsum (imported by cases.py)."""
from __future__ import annotations

import numpy as np

from cases import SPECIAL, Big, V, bools, case, golden, ints, strided, uniform


def u(shape):
    return uniform(shape, -2, 2)


def T(a):  # noqa: N802
    """A transposed view of a (pass the base with the last two dims swapped)."""
    return V(a, ("transpose", -1, -2))


@golden("matmul")
def _matmul():
    out = []
    shapes = [((4,), (4,)), ((3, 4), (4, 5)), ((4,), (4, 5)), ((3, 4), (4,)), ((2, 3, 4), (2, 4, 5)),
              ((2, 1, 3, 4), (5, 4, 2)), ((2, 3, 4), (4,)), ((4,), (2, 4, 5)), ((3, 4), (2, 4, 5)),
              ((2, 3, 4), (4, 5)), ((1, 4), (4, 1)), ((1,), (1,)), ((3, 0), (0, 4)), ((0, 4), (4, 5)),
              ((3, 4), (4, 0)), ((0,), (0,)), ((2, 0, 3), (3, 4)), ((3, 1, 2, 5), (1, 4, 5, 3)),
              ((17, 33), (33, 9)), ((64, 65), (65, 63)), ((1, 300), (300, 1))]
    for sa, sb in shapes:
        out.append(case("matmul", u(sa), u(sb), id=f"{sa} @ {sb}"))
    out.append(case("Tensor.__matmul__", u((3, 4)), u((4, 5)), id="__matmul__"))
    out.append(case("Tensor.__matmul__", u((2, 1, 3, 4)), u((5, 4, 2)), id="__matmul__ broadcast"))
    out.append(case("Tensor.__rmatmul__", u((4, 5)), u((3, 4)), id="__rmatmul__"))
    out.append(case("Tensor.matmul", u((4,)), u((4, 2)), id="method"))
    out.append(case("matmul", ints((3, 4), -5, 5), ints((4, 2), -5, 5), id="int64"))
    out.append(case("matmul", ints((2, 3, 4), -5, 5, "int32"), ints((4,), -5, 5, "int32"), id="int32 3-D @ 1-D"))
    out.append(case("matmul", u((3, 4)), ints((4, 2)), id="error: float @ int64"))
    out.append(case("matmul", u((3, 4)), u((5, 6)), id="error: inner dims differ"))
    out.append(case("matmul", u((4,)), u((5,)), id="error: 1-D lengths differ"))
    out.append(case("matmul", u(()), u((3,)), id="error: 0-d"))
    out.append(case("matmul", u((2, 3, 4)), u((3, 4, 5)), id="error: batch not broadcastable"))
    sp = np.stack([SPECIAL[:4], SPECIAL[4:8], SPECIAL[8:]])
    out.append(case("matmul", sp.copy(), u((4, 3)), id="special values left"))
    out.append(case("matmul", u((2, 3)), sp.copy(), id="special values right"))
    out.append(case("matmul", np.array([[np.inf, 0.0]], np.float32), np.array([[0.0], [1.0]], np.float32),
                    id="inf times zero"))
    out.append(case("matmul", T(u((4, 3))), u((4, 5)), id="transposed lhs"))
    out.append(case("matmul", u((3, 4)), T(u((5, 4))), id="transposed rhs"))
    out.append(case("matmul", T(u((2, 4, 3))), T(u((2, 5, 4))), id="batched both transposed"))
    out.append(case("matmul", strided(u((3, 8))), V(u((8, 5)), ("__getitem__", slice(None, None, 2))),
                    id="strided rows and columns"))
    out.append(case("matmul", V(u((3, 4)), ("expand", 2, 3, 4)), u((2, 4, 5)), id="expanded batch"))
    out.append(case("matmul", V(u((4, 2, 3)), ("permute", 1, 0, 2)), u((3, 5)), id="permuted batch"))
    # gradients
    for sa, sb in [((3, 4), (4, 5)), ((4,), (4,)), ((4,), (4, 5)), ((3, 4), (4,)), ((2, 3, 4), (2, 4, 5)),
                   ((2, 1, 3, 4), (5, 4, 2)), ((2, 3, 4), (4, 5)), ((3, 4), (2, 4, 5)), ((2, 3, 4), (4,)),
                   ((3, 0), (0, 4))]:
        out.append(case("matmul", u(sa), u(sb), id=f"grad {sa} @ {sb}", grad=True))
    out.append(case("matmul", T(u((4, 3))), T(u((5, 4))), id="grad both transposed", grad=True))
    out.append(case("matmul", V(u((3, 4)), ("expand", 2, 3, 4)), u((2, 4, 5)), id="grad expanded batch", grad=True))
    out.append(case("Tensor.__matmul__", u((3, 4)), u((4, 2)), id="grad __matmul__", grad=True))
    out.append(case("matmul", u((3, 4)), ints((4, 2)), id="error: grad float @ int64", grad=True))
    # large
    out.append(case("matmul", Big((512, 512), seed=1300), Big((512, 512), seed=1301), id="512x512 @ 512x512"))
    out.append(case("matmul", Big((1024, 512), seed=1302), Big((512, 1024), seed=1303), id="1024x512 @ 512x1024"))
    out.append(case("matmul", V(Big((512, 512), seed=1304), ("t",)), Big((512, 512), seed=1305),
                    id="512x512 transposed lhs"))
    out.append(case("matmul", Big((8, 128, 256), seed=1306), Big((8, 256, 128), seed=1307), id="batched 8x128x256"))
    out.append(case("matmul", Big((1000, 513), seed=1308), Big((513, 517), seed=1309), id="odd sizes 1000x513x517"))
    out.append(case("matmul", Big((512, 512), seed=1310), V(Big((512, 512), seed=1311), ("t",)),
                    id="512x512 grad transposed rhs", grad=True))
    out.append(case("matmul", Big((1 << 20,), seed=1312), Big((1 << 20,), seed=1313), id="1M dot"))
    out.append(case("matmul", Big((1024, 1024), seed=1314), Big((1024,), seed=1315), id="1024x1024 @ vector"))
    out.append(case("matmul", Big((256, 256), "int64", seed=1316), Big((256, 256), "int64", seed=1317),
                    id="256x256 int64"))
    return out


@golden("mm")
def _mm():
    out = []
    for sa, sb in [((3, 4), (4, 5)), ((1, 1), (1, 1)), ((1, 7), (7, 1)), ((7, 1), (1, 7)), ((0, 3), (3, 2)),
                   ((3, 0), (0, 2)), ((3, 4), (4, 0)), ((33, 17), (17, 65))]:
        out.append(case("mm", u(sa), u(sb), id=f"{sa} @ {sb}"))
    out.append(case("Tensor.mm", u((2, 3)), u((3, 4)), id="method"))
    out.append(case("mm", ints((3, 4), -5, 5), ints((4, 2), -5, 5), id="int64"))
    out.append(case("mm", u((3, 4)), u((5, 2)), id="error: inner dims differ"))
    out.append(case("mm", u((4,)), u((4, 2)), id="error: 1-D"))
    out.append(case("mm", u((2, 3, 4)), u((4, 2)), id="error: 3-D"))
    out.append(case("mm", u((3, 4)), ints((4, 2)), id="error: dtypes differ"))
    out.append(case("mm", T(u((4, 3))), u((4, 5)), id="transposed lhs"))
    out.append(case("mm", u((3, 4)), T(u((5, 4))), id="transposed rhs"))
    out.append(case("mm", T(u((4, 3))), T(u((5, 4))), id="both transposed"))
    out.append(case("mm", u((3, 4)), u((4, 5)), id="grad", grad=True))
    out.append(case("mm", T(u((4, 3))), u((4, 5)), id="grad transposed lhs", grad=True))
    out.append(case("mm", u((3, 4)), T(u((5, 4))), id="grad transposed rhs", grad=True))
    out.append(case("mm", u((1, 6)), u((6, 1)), id="grad 1x1 result", grad=True))
    out.append(case("mm", Big((512, 512), seed=1320), Big((512, 512), seed=1321), id="512x512"))
    out.append(case("mm", Big((600, 520), seed=1322), V(Big((700, 520), seed=1323), ("t",)),
                    id="600x520 @ (700x520).t()"))
    out.append(case("mm", Big((512, 512), seed=1324), Big((512, 512), seed=1325), id="512x512 grad", grad=True))
    return out


@golden("bmm")
def _bmm():
    out = []
    for sa, sb in [((2, 3, 4), (2, 4, 5)), ((1, 3, 4), (1, 4, 2)), ((5, 1, 3), (5, 3, 1)), ((0, 3, 4), (0, 4, 5)),
                   ((2, 0, 4), (2, 4, 3)), ((2, 3, 0), (2, 0, 3)), ((3, 17, 9), (3, 9, 33))]:
        out.append(case("bmm", u(sa), u(sb), id=f"{sa} @ {sb}"))
    out.append(case("Tensor.bmm", u((2, 3, 4)), u((2, 4, 2)), id="method"))
    out.append(case("bmm", ints((2, 3, 4), -5, 5), ints((2, 4, 2), -5, 5), id="int64"))
    out.append(case("bmm", u((2, 3, 4)), u((3, 4, 5)), id="error: batch sizes differ"))
    out.append(case("bmm", u((1, 3, 4)), u((2, 4, 5)), id="error: no broadcasting"))
    out.append(case("bmm", u((3, 4)), u((4, 5)), id="error: 2-D"))
    out.append(case("bmm", u((2, 3, 4)), u((2, 5, 4)), id="error: inner dims differ"))
    out.append(case("bmm", T(u((2, 4, 3))), u((2, 4, 5)), id="transposed lhs"))
    out.append(case("bmm", u((2, 3, 4)), T(u((2, 5, 4))), id="transposed rhs"))
    out.append(case("bmm", V(u((3, 2, 4)), ("permute", 1, 0, 2)), u((2, 4, 5)), id="permuted batch"))
    out.append(case("bmm", V(u((1, 3, 4)), ("expand", 3, 3, 4)), u((3, 4, 2)), id="expanded batch"))
    out.append(case("bmm", u((2, 3, 4)), u((2, 4, 5)), id="grad", grad=True))
    out.append(case("bmm", T(u((2, 4, 3))), T(u((2, 5, 4))), id="grad transposed", grad=True))
    out.append(case("bmm", V(u((1, 3, 4)), ("expand", 3, 3, 4)), u((3, 4, 2)), id="grad expanded batch", grad=True))
    out.append(case("bmm", Big((16, 128, 128), seed=1330), Big((16, 128, 128), seed=1331), id="16x128x128"))
    out.append(case("bmm", Big((4, 512, 512), seed=1332), V(Big((4, 512, 512), seed=1333), ("transpose", 1, 2)),
                    id="4x512x512 transposed rhs"))
    out.append(case("bmm", Big((8, 256, 128), seed=1334), Big((8, 128, 256), seed=1335), id="grad 8x256x128",
                    grad=True))
    return out


@golden("mv")
def _mv():
    out = []
    for sa, sb in [((3, 4), (4,)), ((1, 1), (1,)), ((0, 3), (3,)), ((3, 0), (0,)), ((65, 33), (33,))]:
        out.append(case("mv", u(sa), u(sb), id=f"{sa} @ {sb}"))
    out.append(case("Tensor.mv", u((2, 3)), u((3,)), id="method"))
    out.append(case("mv", ints((3, 4), -5, 5), ints((4,), -5, 5), id="int64"))
    out.append(case("mv", u((3, 4)), u((5,)), id="error: sizes differ"))
    out.append(case("mv", u((3, 4)), u((4, 1)), id="error: 2-D vector"))
    out.append(case("mv", u((4,)), u((4,)), id="error: 1-D matrix"))
    out.append(case("mv", T(u((4, 3))), u((4,)), id="transposed matrix"))
    out.append(case("mv", u((3, 4)), strided(u((8,))), id="strided vector"))
    out.append(case("mv", u((3, 4)), u((4,)), id="grad", grad=True))
    out.append(case("mv", T(u((4, 3))), strided(u((8,))), id="grad transposed strided", grad=True))
    out.append(case("mv", Big((1024, 1024), seed=1340), Big((1024,), seed=1341), id="1024x1024"))
    out.append(case("mv", V(Big((1024, 1024), seed=1342), ("t",)), Big((1024,), seed=1343), id="1024x1024 transposed"))
    out.append(case("mv", Big((1024, 1024), seed=1344), Big((1024,), seed=1345), id="1024x1024 grad", grad=True))
    return out


@golden("dot")
def _dot():
    out = []
    for n in (1, 5, 0, 7, 300, 1000):
        out.append(case("dot", u((n,)), u((n,)), id=f"n={n}"))
    out.append(case("Tensor.dot", u((4,)), u((4,)), id="method"))
    out.append(case("dot", ints((6,), -9, 9), ints((6,), -9, 9), id="int64"))
    out.append(case("dot", ints((6,), -9, 9, "int32"), ints((6,), -9, 9, "int32"), id="int32"))
    out.append(case("dot", u((4,)), ints((4,)), id="error: dtypes differ"))
    out.append(case("dot", u((4,)), u((5,)), id="error: sizes differ"))
    out.append(case("dot", u((2, 2)), u((2, 2)), id="error: 2-D"))
    out.append(case("dot", u(()), u(()), id="error: 0-d"))
    out.append(case("dot", SPECIAL.copy(), np.ones(12, np.float32), id="special values"))
    out.append(case("dot", strided(u((10,))), V(u((5,)), ("flip", 0)), id="strided and flipped"))
    out.append(case("dot", u((5,)), u((5,)), id="grad", grad=True))
    out.append(case("dot", strided(u((10,))), u((5,)), id="grad strided", grad=True))
    out.append(case("dot", V(u((3, 4)), ("__getitem__", (slice(None), 1))), u((3,)), id="grad column view",
                    grad=True))
    out.append(case("dot", Big((1 << 20,), seed=1350), Big((1 << 20,), seed=1351), id="1M"))
    out.append(case("dot", Big((1 << 20,), seed=1352), Big((1 << 20,), seed=1353), id="1M grad", grad=True))
    out.append(case("dot", Big((1 << 20,), "int64", seed=1354), Big((1 << 20,), "int64", seed=1355), id="1M int64"))
    return out


@golden("outer")
def _outer():
    out = []
    for a, b in [(3, 4), (1, 1), (0, 3), (3, 0), (5, 1), (100, 37)]:
        out.append(case("outer", u((a,)), u((b,)), id=f"{a} x {b}"))
    out.append(case("Tensor.outer", u((3,)), u((2,)), id="method"))
    out.append(case("ger", u((3,)), u((2,)), id="ger alias"))
    out.append(case("outer", ints((3,)), ints((4,)), id="int64"))
    out.append(case("outer", u((3,)), ints((4,)), id="float and int64"))
    out.append(case("outer", bools((3,)), bools((2,)), id="bool"))
    out.append(case("outer", u((2, 2)), u((3,)), id="error: 2-D"))
    out.append(case("outer", SPECIAL.copy(), np.array([1.0, 0.0, -1.0], np.float32), id="special values"))
    out.append(case("outer", strided(u((8,))), V(u((3,)), ("flip", 0)), id="strided and flipped"))
    out.append(case("outer", u((3,)), u((4,)), id="grad", grad=True))
    out.append(case("outer", strided(u((8,))), u((2,)), id="grad strided", grad=True))
    out.append(case("outer", Big((1024,), seed=1360), Big((1024,), seed=1361), id="1024 x 1024"))
    out.append(case("outer", Big((1024,), seed=1362), Big((1024,), seed=1363), id="1024 x 1024 grad", grad=True))
    return out


@golden("addmm")
def _addmm():
    out = []
    for si in [(3, 5), (5,), (1, 5), (3, 1), (), (1, 1)]:
        out.append(case("addmm", u(si), u((3, 4)), u((4, 5)), id=f"input {si}"))
    for beta, alpha in [(0.5, 1), (1, 2.0), (0.0, 1.0), (2, -1.5), (0, 0), (1.0, 0.0)]:
        out.append(case("addmm", u((3, 5)), u((3, 4)), u((4, 5)), beta=beta, alpha=alpha,
                        id=f"beta={beta!r} alpha={alpha!r}"))
    nan = np.full((3, 5), np.nan, np.float32)
    out.append(case("addmm", nan, u((3, 4)), u((4, 5)), beta=0, id="beta=0 ignores nan input"))
    out.append(case("addmm", u((3, 5)), np.full((3, 4), np.inf, np.float32), u((4, 5)), alpha=0,
                    id="alpha=0 with inf (probe)"))
    out.append(case("Tensor.addmm", u((3, 5)), u((3, 4)), u((4, 5)), id="method"))
    out.append(case("Tensor.addmm_", u((3, 5)), u((3, 4)), u((4, 5)), beta=0.5, id="in-place"))
    out.append(case("addmm", ints((3, 5)), ints((3, 4)), ints((4, 5)), id="int64"))
    out.append(case("addmm", ints((3, 5)), ints((3, 4)), ints((4, 5)), beta=2, alpha=3, id="int64 int beta alpha"))
    out.append(case("addmm", u((3, 5)), u((3, 4)), u((5, 5)), id="error: inner dims differ"))
    out.append(case("addmm", u((4, 5)), u((3, 4)), u((4, 5)), id="error: input not broadcastable"))
    out.append(case("addmm", u((5,)), u((4,)), u((4, 5)), id="error: 1-D mat1"))
    out.append(case("addmm", u((3, 5)), T(u((4, 3))), T(u((5, 4))), id="transposed"))
    out.append(case("addmm", T(u((5, 3))), u((3, 4)), u((4, 5)), id="transposed input"))
    out.append(case("addmm", u((0, 5)), u((0, 4)), u((4, 5)), id="empty"))
    out.append(case("addmm", u((3, 5)), u((3, 0)), u((0, 5)), id="k=0"))
    out.append(case("addmm", u((3, 5)), u((3, 4)), u((4, 5)), id="grad", grad=True))
    out.append(case("addmm", u((5,)), u((3, 4)), u((4, 5)), beta=0.5, alpha=2.0, id="grad bias beta alpha",
                    grad=True))
    out.append(case("addmm", u((3, 1)), T(u((4, 3))), T(u((5, 4))), id="grad transposed column bias", grad=True))
    out.append(case("addmm", u(()), u((3, 4)), u((4, 5)), beta=0, id="grad beta=0", grad=True))
    out.append(case("addmm", Big((512,), seed=1370), Big((512, 512), seed=1371), Big((512, 512), seed=1372),
                    id="512x512 with bias"))
    out.append(case("addmm", Big((512, 512), seed=1373), Big((512, 512), seed=1374),
                    V(Big((512, 512), seed=1375), ("t",)), beta=0.5, alpha=2.0, id="512x512 grad", grad=True))
    return out


@golden("baddbmm")
def _baddbmm():
    out = []
    for si in [(2, 3, 5), (3, 5), (5,), (1, 1, 5), (2, 3, 1), ()]:
        out.append(case("baddbmm", u(si), u((2, 3, 4)), u((2, 4, 5)), id=f"input {si}"))
    for beta, alpha in [(0.5, 1), (1, 2.0), (0.0, 1.0), (2, -1.5), (0, 0)]:
        out.append(case("baddbmm", u((2, 3, 5)), u((2, 3, 4)), u((2, 4, 5)), beta=beta, alpha=alpha,
                        id=f"beta={beta!r} alpha={alpha!r}"))
    out.append(case("baddbmm", np.full((2, 3, 5), np.nan, np.float32), u((2, 3, 4)), u((2, 4, 5)), beta=0,
                    id="beta=0 ignores nan input"))
    out.append(case("Tensor.baddbmm", u((2, 3, 5)), u((2, 3, 4)), u((2, 4, 5)), id="method"))
    out.append(case("Tensor.baddbmm_", u((2, 3, 5)), u((2, 3, 4)), u((2, 4, 5)), alpha=0.5, id="in-place"))
    out.append(case("baddbmm", ints((2, 3, 5)), ints((2, 3, 4)), ints((2, 4, 5)), id="int64"))
    out.append(case("baddbmm", u((2, 3, 5)), u((2, 3, 4)), u((3, 4, 5)), id="error: batch sizes differ"))
    out.append(case("baddbmm", u((2, 3, 5)), u((2, 3, 4)), u((2, 5, 5)), id="error: inner dims differ"))
    out.append(case("baddbmm", u((3, 5)), u((3, 4)), u((4, 5)), id="error: 2-D"))
    out.append(case("baddbmm", u((2, 3, 5)), T(u((2, 4, 3))), T(u((2, 5, 4))), id="transposed"))
    out.append(case("baddbmm", u((0, 3, 5)), u((0, 3, 4)), u((0, 4, 5)), id="empty batch"))
    out.append(case("baddbmm", u((2, 3, 5)), u((2, 3, 4)), u((2, 4, 5)), id="grad", grad=True))
    out.append(case("baddbmm", u((5,)), T(u((2, 4, 3))), u((2, 4, 5)), beta=0.5, alpha=-2.0,
                    id="grad bias transposed", grad=True))
    out.append(case("baddbmm", Big((8, 128, 128), seed=1380), Big((8, 128, 256), seed=1381),
                    Big((8, 256, 128), seed=1382), beta=0.5, alpha=0.25, id="8x128x128"))
    out.append(case("baddbmm", Big((4, 512, 512), seed=1383), Big((4, 512, 512), seed=1384),
                    Big((4, 512, 512), seed=1385), id="4x512x512 grad", grad=True))
    return out


@golden("einsum")
def _einsum():
    out = []
    pats = [("ij,jk->ik", (3, 4), (4, 5)), ("bij,bjk->bik", (2, 3, 4), (2, 4, 5)), ("i,i->", (5,), (5,)),
            ("ij->ji", (3, 4)), ("ii->i", (4, 4)), ("ii->", (4, 4)), ("bhqd,bhkd->bhqk", (2, 3, 4, 5), (2, 3, 6, 5)),
            ("ij,j->i", (3, 4), (4,)), ("i,j->ij", (3,), (4,)), ("ij->", (3, 4)), ("ij->j", (3, 4)),
            ("ijk->kji", (2, 3, 4)), ("ij,ij->ij", (3, 4), (3, 4)), ("ij,ij->", (3, 4), (3, 4)),
            ("ij,jk", (3, 4), (4, 5)), ("ba,ca", (3, 4), (5, 4)), ("...ij,...jk->...ik", (2, 3, 4), (2, 4, 5)),
            ("...ij,jk->...ik", (2, 2, 3, 4), (4, 5)), ("bn,anm,bm->ba", (2, 3), (4, 3, 5), (2, 5)),
            ("ij,jk,kl->il", (2, 3), (3, 4), (4, 5)), ("i,i,i->i", (4,), (4,), (4,)), ("b i j, b j k -> b i k",
                                                                                       (2, 3, 4), (2, 4, 5)),
            ("bhqk,bhkd->bhqd", (2, 3, 4, 6), (2, 3, 6, 5)), ("ij,kj->ik", (3, 4), (5, 4)), ("i->", (7,)),
            ("ij,i->j", (3, 4), (3,))]
    for pat, *shapes in pats:
        out.append(case("einsum", pat, *[u(s) for s in shapes], id=pat))
    for pat, *shapes in [("ij,jk->ik", (3, 4), (4, 5)), ("bij,bjk->bik", (2, 3, 4), (2, 4, 5)), ("i,i->", (5,), (5,)),
                         ("bhqd,bhkd->bhqk", (2, 3, 4, 5), (2, 3, 6, 5)), ("ij,j->i", (3, 4), (4,)),
                         ("i,j->ij", (3,), (4,)), ("ij->ji", (3, 4)), ("ii->i", (4, 4)), ("ij->j", (3, 4)),
                         ("...ij,jk->...ik", (2, 2, 3, 4), (4, 5)), ("ij,jk,kl->il", (2, 3), (3, 4), (4, 5))]:
        out.append(case("einsum", pat, *[u(s) for s in shapes], id=f"grad {pat}", grad=True))
    out.append(case("einsum", "ij,jk->ik", [u((3, 4)), u((4, 5))], id="operands as a list"))
    out.append(case("einsum", "ij,jk->ik", T(u((4, 3))), T(u((5, 4))), id="transposed operands"))
    out.append(case("einsum", "ij,jk->ik", T(u((4, 3))), u((4, 5)), id="grad transposed operand", grad=True))
    out.append(case("einsum", "ij,jk->ik", ints((3, 4)), ints((4, 5)), id="int64"))
    out.append(case("einsum", "ij,jk->ik", u((3, 4)), u((5, 6)), id="error: sizes differ"))
    out.append(case("einsum", "ij,jk->ik", u((3, 4)), id="error: too few operands"))
    out.append(case("einsum", "ijk,jk->ik", u((3, 4)), u((4, 5)), id="error: too many indices"))
    out.append(case("einsum", "ij,jk->il", u((3, 4)), u((4, 5)), id="error: output index not in inputs"))
    out.append(case("einsum", "ij,jk->ik", Big((512, 512), seed=1390), Big((512, 512), seed=1391), id="512x512 mm"))
    out.append(case("einsum", "bhqd,bhkd->bhqk", Big((2, 4, 256, 64), seed=1392), Big((2, 4, 256, 64), seed=1393),
                    id="attention scores 2x4x256x64", grad=True))
    return out


# ---- decompositions (ops/_linalg_solve.py, ops/_linalg_spectral.py) ---------------------------------
# Well-conditioned inputs, so that float32 results are meaningful: general matrices are a random
# matrix plus 2 sqrt(n) I with the rows shuffled (cond < ~5; the shuffle makes LU pivot), SPD ones
# M M^T / n + I, symmetric ones Q diag(w) Q^T with eigenvalues spread over [-2, 3], and SVD inputs
# U diag(s) V^T with s spread over [0.5, 3]. Eigen- and singular vectors are defined up to sign: those
# cases go through SIGNFIX_* (each vector's sign made that of its first component's, the same
# expression on both sides), as PyTorch's own tests compare them.
from cases import _rng  # noqa: E402

SIZES = [(1, 1), (2, 2), (3, 3), (5, 5), (2, 4, 4), (2, 3, 3, 3), (40, 40)]


def gen(shape):
    n = shape[-1]
    a = _rng.uniform(-1, 1, size=shape) + 2 * np.sqrt(n) * np.eye(n)
    perm = _rng.permutation(n)
    return np.ascontiguousarray(a[..., perm, :], dtype=np.float32)


def _orth(batch, n):
    q, r = np.linalg.qr(_rng.normal(size=batch + (n, n)))
    return q * np.sign(np.diagonal(r, axis1=-2, axis2=-1))[..., None, :]


def spd(shape):
    m = _rng.uniform(-1, 1, size=shape)
    return (m @ np.swapaxes(m, -1, -2) / shape[-1] + np.eye(shape[-1])).astype(np.float32)


def sym(shape):
    n = shape[-1]
    q = _orth(shape[:-2], n)
    w = np.linspace(-2, 3, n) + _rng.uniform(-0.2, 0.2, size=shape[:-1]) * (5 / max(n, 1))
    a = (q * w[..., None, :]) @ np.swapaxes(q, -1, -2)
    return ((a + np.swapaxes(a, -1, -2)) / 2).astype(np.float32)


def svdin(shape):
    m, n = shape[-2:]
    k = min(m, n)
    u, v = _orth(shape[:-2], m)[..., :k], _orth(shape[:-2], n)[..., :k]
    s = np.linspace(3, 0.5, k) + _rng.uniform(-0.1, 0.1, size=shape[:-2] + (k,)) * (2.5 / max(k, 1))
    return ((u * s[..., None, :]) @ np.swapaxes(v, -1, -2)).astype(np.float32)


SIGNFIX_EIGH = ("lambda A, *a, **k: (lambda r: (r[0], r[1] * r[1][..., :1, :].sign()))"
                "(torch.linalg.eigh(A, *a, **k))")
SIGNFIX_SVD = ("lambda A, *a, **k: (lambda U, S, Vh: (lambda s: (U[..., :S.shape[-1]] * s.mT, S, "
               "Vh[..., :S.shape[-1], :] * s, U.mT @ U, Vh @ Vh.mT))(Vh[..., :S.shape[-1], :1].sign()))"
               "(*torch.linalg.svd(A, *a, **k))")
SINGULAR = np.array([[1, 2, 3], [2, 4, 6], [1, 0, 1]], np.float32)


def _errors(fn, extra=()):
    out = [case(fn, u((2, 3)), id="error: not square"), case(fn, u((3,)), id="error: 1-D"),
           case(fn, ints((3, 3)), id="error: int64")]
    return out + list(extra)


@golden("linalg.inv")
def _inv():
    out = [case("linalg.inv", gen(s), id=f"{s}") for s in SIZES]
    out += [case("linalg.inv", gen((0, 3, 3)), id="empty batch"), case("inverse", gen((3, 3)), id="torch.inverse"),
            case("Tensor.inverse", gen((2, 3, 3)), id="Tensor.inverse"),
            case("linalg.inv", T(gen((4, 4))), id="transposed"),
            case("linalg.inv", np.zeros((3, 3), np.float32), id="error: zeros singular"),
            case("linalg.inv", SINGULAR, id="error: singular"),
            case("linalg.inv", np.stack([gen((3, 3)), SINGULAR]), id="error: batch element 1 singular")]
    out += _errors("linalg.inv")
    out += [case("linalg.inv", gen(s), id=f"grad {s}", grad=True) for s in [(1, 1), (3, 3), (2, 4, 4), (40, 40)]]
    return out


@golden("linalg.inv_ex")
def _inv_ex():
    info = "lambda A, **k: torch.linalg.inv_ex(A, **k).info"
    return [case("linalg.inv_ex", gen((3, 3)), id="3x3"), case("linalg.inv_ex", gen((2, 5, 5)), id="batch"),
            case("_module", info, np.stack([gen((3, 3)), SINGULAR]), id="info of a batch with a singular matrix"),
            case("linalg.inv_ex", np.stack([gen((3, 3)), SINGULAR]), check_errors=True,
                 id="error: check_errors"),
            case("linalg.inv_ex", u((2, 3)), id="error: not square"),
            case("linalg.inv_ex", gen((2, 3, 3)), id="grad", grad=True)]


@golden("linalg.det")
def _det():
    out = [case("linalg.det", gen(s), id=f"{s}") for s in SIZES[:-1]]
    out += [case("linalg.det", gen((12, 12)) / 4, id="12x12"), case("det", gen((3, 3)), id="torch.det"),
            case("Tensor.det", gen((2, 3, 3)), id="Tensor.det"), case("linalg.det", SINGULAR, id="singular: 0"),
            case("linalg.det", np.zeros((0, 0), np.float32), id="0x0")]
    out += _errors("linalg.det")
    out += [case("linalg.det", gen(s), id=f"grad {s}", grad=True) for s in [(1, 1), (3, 3), (2, 4, 4)]]
    return out


@golden("linalg.slogdet")
def _slogdet():
    out = [case("linalg.slogdet", gen(s), id=f"{s}") for s in SIZES]
    out += [case("slogdet", gen((3, 3)), id="torch.slogdet"), case("Tensor.slogdet", gen((3, 3)), id="Tensor.slogdet"),
            case("linalg.slogdet", -gen((3, 3)), id="negative"), case("linalg.slogdet", SINGULAR, id="singular"),
            case("logdet", spd((2, 4, 4)), id="torch.logdet"), case("logdet", -spd((3, 3)), id="logdet negative: nan"),
            case("Tensor.logdet", spd((3, 3)), id="Tensor.logdet"), case("logdet", u((2, 3)), id="error: logdet")]
    out += _errors("linalg.slogdet")
    out += [case("linalg.slogdet", gen((2, 4, 4)), id="grad", grad=True),
            case("logdet", spd((3, 3)), id="grad logdet", grad=True)]
    return out


@golden("linalg.solve")
def _solve():
    out = []
    for sa, sb in [((1, 1), (1,)), ((3, 3), (3,)), ((3, 3), (3, 2)), ((2, 4, 4), (2, 4)), ((2, 4, 4), (2, 4, 3)),
                   ((2, 4, 4), (4, 3)), ((4, 4), (3, 4, 2)), ((2, 1, 3, 3), (4, 3, 1)), ((40, 40), (40, 5))]:
        out.append(case("linalg.solve", gen(sa), u(sb), id=f"{sa} {sb}"))
    out += [case("linalg.solve", gen((3, 3)), u((2, 3)), left=False, id="left=False"),
            case("linalg.solve", T(gen((4, 4))), u((4, 2)), id="transposed A"),
            case("linalg.solve", SINGULAR, u((3,)), id="error: singular"),
            case("linalg.solve", np.stack([gen((3, 3)), SINGULAR]), u((2, 3)), id="error: batch singular"),
            case("linalg.solve", gen((3, 3)), u((4,)), id="error: sizes differ"),
            case("linalg.solve", gen((3, 3)), u((2, 4, 3)), id="error: B rows differ"),
            case("linalg.solve", u((2, 3)), u((2,)), id="error: not square"),
            case("linalg.solve", gen((2, 3, 3)), u((3, 3, 1)), id="error: batch not broadcastable")]
    for sa, sb in [((3, 3), (3,)), ((2, 4, 4), (4, 3)), ((4, 4), (2, 4, 2))]:
        out.append(case("linalg.solve", gen(sa), u(sb), id=f"grad {sa} {sb}", grad=True))
    return out


@golden("linalg.cholesky")
def _cholesky():
    out = [case("linalg.cholesky", spd(s), id=f"{s}") for s in SIZES]
    out += [case("linalg.cholesky", spd((3, 3)), upper=True, id="upper"),
            case("linalg.cholesky", np.tril(spd((4, 4))), id="lower triangle only"),
            case("linalg.cholesky", -np.eye(3, dtype=np.float32), id="error: not positive-definite"),
            case("linalg.cholesky", np.stack([spd((3, 3)), np.diag([1, 1, -1]).astype(np.float32)]),
                 id="error: batch element 1, minor 3")]
    out += _errors("linalg.cholesky")
    out += [case("linalg.cholesky", spd(s), id=f"grad {s}", grad=True) for s in [(1, 1), (3, 3), (2, 4, 4)]]
    out.append(case("linalg.cholesky", spd((4, 4)), upper=True, id="grad upper", grad=True))
    return out


@golden("linalg.cholesky_ex")
def _cholesky_ex():
    info = "lambda A, **k: torch.linalg.cholesky_ex(A, **k).info"
    return [case("linalg.cholesky_ex", spd((2, 3, 3)), id="batch"),
            case("_module", info, np.stack([spd((3, 3)), -np.eye(3, dtype=np.float32)]), id="info"),
            case("linalg.cholesky_ex", -np.eye(3, dtype=np.float32), check_errors=True, id="error: check_errors"),
            case("linalg.cholesky_ex", spd((3, 3)), id="grad", grad=True)]


@golden("cholesky_solve")
def _cholesky_solve():
    L = np.linalg.cholesky(spd((3, 3))).astype(np.float32)
    Lb = np.linalg.cholesky(spd((2, 4, 4))).astype(np.float32)
    return [case("cholesky_solve", u((3, 2)), L, id="3x3"), case("cholesky_solve", u((2, 4, 1)), Lb, id="batch"),
            case("cholesky_solve", u((3, 2)), np.ascontiguousarray(L.T), True, id="upper"),
            case("Tensor.cholesky_solve", u((3, 2)), L, id="method"),
            case("cholesky_solve", u((3, 2)), np.eye(4, dtype=np.float32), id="error: sizes differ"),
            case("cholesky_solve", u((3, 2)), L, id="grad", grad=True),
            case("cholesky_inverse", L, id="cholesky_inverse"), case("Tensor.cholesky_inverse", Lb, id="method inverse"),
            case("cholesky_inverse", np.ascontiguousarray(L.T), upper=True, id="cholesky_inverse upper"),
            case("cholesky_inverse", u((2, 3)), id="error: cholesky_inverse not square"),
            case("cholesky_inverse", L, id="grad cholesky_inverse", grad=True)]


@golden("linalg.matrix_power")
def _matrix_power():
    out = [case("linalg.matrix_power", gen((3, 3)) / 4, p, id=f"n={p}") for p in (0, 1, 2, 3, 5, -1, -2)]
    out += [case("linalg.matrix_power", gen((2, 4, 4)) / 5, 3, id="batch"),
            case("matrix_power", gen((3, 3)) / 4, 2, id="torch.matrix_power"),
            case("Tensor.matrix_power", gen((3, 3)) / 4, 2, id="Tensor.matrix_power"),
            case("linalg.matrix_power", u((2, 3)), 2, id="error: not square"),
            case("linalg.matrix_power", SINGULAR, -1, id="error: singular"),
            case("linalg.matrix_power", gen((3, 3)) / 4, 3, id="grad", grad=True),
            case("linalg.matrix_power", gen((3, 3)) / 4, -2, id="grad n=-2", grad=True)]
    return out


@golden("linalg.qr")
def _qr():
    out = []
    for s in [(1, 1), (3, 3), (5, 3), (3, 5), (2, 4, 3), (2, 3, 4, 4), (40, 40), (48, 33)]:
        out.append(case("linalg.qr", u(s), id=f"{s}"))
    out += [case("linalg.qr", u((5, 3)), mode="complete", id="complete 5x3"),
            case("linalg.qr", u((3, 5)), mode="complete", id="complete 3x5"),
            case("linalg.qr", u((2, 5, 3)), mode="r", id="r"),
            case("linalg.qr", T(u((3, 4))), id="transposed"),
            case("linalg.qr", u((3, 3)), mode="x", id="error: mode"), case("linalg.qr", u((3,)), id="error: 1-D")]
    for s in [(3, 3), (5, 3), (3, 5), (2, 4, 3)]:
        out.append(case("linalg.qr", u(s), id=f"grad {s}", grad=True))
    out.append(case("linalg.qr", u((3, 5)), mode="complete", id="grad complete 3x5", grad=True))
    return out


@golden("linalg.eigh")
def _eigh():
    out = [case("_module", SIGNFIX_EIGH, sym(s), id=f"{s}") for s in SIZES]
    up = np.triu(sym((4, 4))) + np.tril(u((4, 4)), -1)
    out += [case("_module", SIGNFIX_EIGH, up, UPLO="U", id="UPLO=U reads the upper triangle"),
            case("_module", SIGNFIX_EIGH, np.tril(sym((4, 4))) + np.triu(u((4, 4)), 1), id="reads the lower triangle"),
            case("linalg.eigh", u((2, 3)), id="error: not square"),
            case("linalg.eigh", sym((3, 3)), UPLO="X", id="error: UPLO"),
            case("linalg.eigh", ints((3, 3)), id="error: int64")]
    out += [case("_module", SIGNFIX_EIGH, sym(s), id=f"grad {s}", grad=True) for s in [(1, 1), (3, 3), (2, 5, 5)]]
    out.append(case("_module", SIGNFIX_EIGH, up, UPLO="U", id="grad UPLO=U", grad=True))
    return out


@golden("linalg.eigvalsh")
def _eigvalsh():
    return [case("linalg.eigvalsh", sym((2, 5, 5)), id="batch"),
            case("linalg.eigvalsh", sym((40, 40)), id="40x40"),
            case("linalg.eigvalsh", np.triu(sym((4, 4))), UPLO="U", id="UPLO=U"),
            case("linalg.eigvalsh", u((3,)), id="error: 1-D"),
            case("linalg.eigvalsh", sym((4, 4)), id="grad", grad=True)]


@golden("linalg.svd")
def _svd():
    out = []
    for s in [(1, 1), (3, 3), (5, 3), (3, 5), (2, 4, 3), (2, 3, 4, 4), (40, 40), (48, 33)]:
        out.append(case("_module", SIGNFIX_SVD, svdin(s), full_matrices=False, id=f"{s}"))
    out += [case("_module", SIGNFIX_SVD, svdin((5, 3)), id="full_matrices 5x3"),
            case("_module", SIGNFIX_SVD, svdin((2, 3, 5)), id="full_matrices 3x5"),
            case("_module", SIGNFIX_SVD, svdin((4, 4)), driver="gesvd", id="error: driver= (CUDA only)"),
            case("linalg.svd", u((3,)), id="error: 1-D"), case("linalg.svd", ints((3, 3)), id="error: int64")]
    for s in [(3, 3), (5, 3), (3, 5), (2, 4, 3)]:
        out.append(case("_module", SIGNFIX_SVD, svdin(s), full_matrices=False, id=f"grad {s}", grad=True))
    # torch.svd: (U, S, V), some=True by default
    old = ("lambda A, *a, **k: (lambda U, S, V: (lambda s: (U[..., :S.shape[-1]] * s.mT, S, "
           "V[..., :, :S.shape[-1]] * s.mT))(V[..., :1, :S.shape[-1]].sign().mT))(*torch.svd(A, *a, **k))")
    out += [case("_module", old, svdin((5, 3)), id="torch.svd"), case("_module", old, svdin((2, 3, 4)), False,
                                                                     id="torch.svd some=False"),
            case("_module", old, svdin((4, 3)), id="grad torch.svd", grad=True),
            case("svd", svdin((4, 3)), compute_uv=False, id="torch.svd compute_uv=False"),
            case("Tensor.svd", svdin((3, 3)), compute_uv=False, id="Tensor.svd compute_uv=False")]
    return out


@golden("linalg.pinv")
def _pinv():
    low = np.outer(u((4,)), u((3,))).astype(np.float32)
    return [case("linalg.pinv", svdin(s), id=f"{s}") for s in [(3, 3), (5, 3), (3, 5), (2, 4, 3)]] + \
        [case("linalg.pinv", low, id="rank 1"), case("linalg.pinv", svdin((4, 4)), rtol=0.5, id="rtol"),
         case("linalg.pinv", svdin((4, 4)), atol=1.0, id="atol"),
         case("linalg.pinv", sym((4, 4)), hermitian=True, id="hermitian"),
         case("linalg.pinv", u((3,)), id="error: 1-D"),
         case("pinverse", svdin((4, 3)), id="torch.pinverse"), case("Tensor.pinverse", svdin((3, 4)), rcond=0.5,
                                                                    id="Tensor.pinverse rcond"),
         case("linalg.pinv", svdin((4, 3)), id="grad", grad=True)]


@golden("linalg.matrix_rank")
def _matrix_rank():
    low = np.outer(u((4,)), u((3,))).astype(np.float32)
    return [case("linalg.matrix_rank", svdin((2, 4, 3)), id="full rank batch"),
            case("linalg.matrix_rank", low, id="rank 1"), case("linalg.matrix_rank", SINGULAR, id="rank 2"),
            case("linalg.matrix_rank", np.zeros((3, 3), np.float32), id="zeros"),
            case("linalg.matrix_rank", svdin((4, 4)), atol=1.0, id="atol"),
            case("linalg.matrix_rank", svdin((4, 4)), rtol=0.5, id="rtol"),
            case("linalg.matrix_rank", sym((4, 4)), hermitian=True, id="hermitian"),
            case("linalg.matrix_rank", u((3,)), id="error: 1-D")]


@golden("linalg.lstsq")
def _lstsq():
    out = [case("linalg.lstsq", svdin((5, 3)), u((5, 2)), id="5x3"),
           case("linalg.lstsq", svdin((2, 6, 4)), u((2, 6, 1)), id="batch"),
           case("linalg.lstsq", svdin((4, 4)), u((4, 3)), id="square"),
           case("linalg.lstsq", svdin((5, 3)), u((5,)), id="vector B")]
    out += [case("linalg.lstsq", svdin((2, 5, 3)), u((2, 5, 2)), driver=d, id=f"driver {d}")
            for d in ("gels", "gelsy", "gelsd", "gelss")]
    out += [case("linalg.lstsq", svdin((5, 3)), u((4, 2)), id="error: rows differ"),
            case("linalg.lstsq", svdin((5, 3)), u((5, 2)), driver="x", id="error: driver"),
            case("linalg.lstsq", svdin((5, 3)), u((5, 2)), id="grad", grad=True)]
    return out


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
            case("vander", u((4,)), id="torch.vander"), case("vander", ints((3,)), 4, True, id="torch.vander increasing"),
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
