"""Golden cases: torch.linalg's decompositions (ops/_linalg_solve.py, ops/_linalg_spectral.py; imported by
cases_linalg.py)."""
from __future__ import annotations

import numpy as np

from cases import V, _rng, case, golden, ints, uniform


def u(shape):
    return uniform(shape, -2, 2)


def T(a):  # noqa: N802
    """A transposed view of a (pass the base with the last two dims swapped)."""
    return V(a, ("transpose", -1, -2))


# Well-conditioned inputs, so that float32 results are meaningful: general matrices are a random
# matrix plus 2 sqrt(n) I with the rows shuffled (cond < ~5; the shuffle makes LU pivot), SPD ones
# M M^T / n + I, symmetric ones Q diag(w) Q^T with eigenvalues spread over [-2, 3], and SVD inputs
# U diag(s) V^T with s spread over [0.5, 3]. Eigen- and singular vectors are defined up to sign: those
# cases go through SIGNFIX_* (each vector's sign made that of its first component's, the same
# expression on both sides), as PyTorch's own tests compare them.

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
            case("cholesky_inverse", L, id="cholesky_inverse"),
            case("Tensor.cholesky_inverse", Lb, id="method inverse"),
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
            case("linalg.eigh", ints((3, 3)), id="error: int64"),
            case("linalg.eigh", np.full((3, 3), np.nan, np.float32), id="error: non-finite [type only]"),
            case("linalg.eigh", np.stack([sym((3, 3)), np.full((3, 3), np.inf, np.float32)]),
                 id="error: non-finite batch [type only]")]
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
            case("linalg.svd", u((3,)), id="error: 1-D"), case("linalg.svd", ints((3, 3)), id="error: int64"),
            case("linalg.svd", np.full((3, 2), np.nan, np.float32), id="error: non-finite"),
            case("linalg.svd", np.stack([svdin((3, 3)), np.full((3, 3), np.inf, np.float32)]),
                 id="error: non-finite batch [type only]")]
    # rank-deficient: vectors of a zero singular value are any orthonormal completion; compare what is defined
    defined = ("lambda A: (lambda U, S, Vh: (S, U.mT @ U, Vh @ Vh.mT, (U * S.unsqueeze(-2)) @ Vh))"
               "(*torch.linalg.svd(A, full_matrices=False))")
    for name, a in [("zeros 4x3", np.zeros((4, 3), np.float32)), ("zeros 3x4", np.zeros((3, 4), np.float32)),
                    ("rank 1", np.outer([1, 2, 3, 4], [1, 0, 2]).astype(np.float32)),
                    ("rank 1 wide", np.outer([1, 2, 3], [1, 0, 2, 1]).astype(np.float32))]:
        out.append(case("_module", defined, a, id=f"rank-deficient {name}"))
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
            case("linalg.matrix_rank", u((3,)), id="error: 1-D"),
            case("linalg.matrix_rank", np.full((3, 3), np.nan, np.float32), id="error: non-finite [type only]")]


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
