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
    # in-place ops on a product (nn.Linear then ReLU(inplace=True)); on cpu these outputs were read-only views once
    for name, steps in [("mm", [("mm", u((4, 2)))]), ("@", [("__matmul__", u((4, 2)))]),
                        ("matmul batched", [("matmul", u((2, 4, 2)))]),
                        ("bmm", [("unsqueeze", 0), ("bmm", u((1, 4, 2)))]),
                        ("@ reflected", [("__rmatmul__", u((2, 3)))])]:
        out.append(case("Tensor.relu_", V(u((3, 4)), *steps), id=f"relu_ on the output of {name}"))
    out.append(case("Tensor.zero_", V(u((3, 4)), ("mm", u((4, 2)))), id="zero_ on the output of mm"))
    out.append(case("Tensor.mul_", V(u((3,)), ("addmm", u((2, 4)), u((4, 3)))), 2.0, id="mul_ on addmm's output"))
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


# the decompositions' cases (torch.linalg.inv ... lstsq, LU and the compositions) register on import
import cases_linalg_decomp  # noqa: E402,F401
import cases_linalg_more  # noqa: E402,F401
