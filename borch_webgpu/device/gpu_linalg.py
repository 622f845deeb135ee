"""torch.linalg's decompositions on the ``webgpu`` device: the kernels of wgsl/linalg.wgsl, one workgroup
of 64 threads per matrix of the batch (ops/_linalg_core.py calls these with contiguous float32
(N, m, n) tensors). Each kernel copies its matrix into a workspace buffer of its own and works there.

Pipeline keys: ("linalg", kernel). Sizes travel in the uniform block (words: N, m, n, k, input
offset, B's offset), so one pipeline serves every shape. The work per matrix is O(n^3) (LU,
Cholesky, QR) or O(sweeps * n^3) (the Jacobi methods, sweeps <= 30, typically 6-10) on 64 threads:
meant for the small and medium matrices (n up to a few hundred) that torch programs invert or
decompose, not for large dense linear algebra.
"""
from __future__ import annotations

from .. import _dtype
from ..tensor import Tensor
from . import kernels
from .gpu_backend import GPUStorage
from .webgpu import runtime

__all__ = ["lu_solve", "cholesky", "qr", "eigh", "svd", "source"]

_MASKS = {"lu": "rrwww", "cholesky": "rww", "qr": "rwww", "eigh": "rwwww", "svd": "rwwwww"}


def source(kernel: str) -> str:
    head, blocks = kernels.blocks("linalg.wgsl")
    return head + blocks[kernel]


def _run(kernel: str, N: int, m: int, n: int, k: int, inputs: tuple, outputs: list[int]) -> list[GPUStorage]:
    """Dispatch ``kernel`` over N matrices; inputs: contiguous tensors (bound read-only, the first one's
    offset in word 4, the second's in word 5); outputs: sizes in float32 words of the buffers it writes."""
    rt = runtime()
    pipe = rt.pipeline(("linalg", kernel), lambda: source(kernel), _MASKS[kernel])
    outs = [GPUStorage(rt, 4 * max(size, 1)) for size in outputs]
    offsets = [t._offset for t in inputs] + [0] * (2 - len(inputs))
    words = [N, m, n, k, *offsets]
    rt.dispatch(pipe, tuple(t._storage.bid for t in inputs) + tuple(o.bid for o in outs), words, N)
    return outs


def _t(storage: GPUStorage, like: Tensor, shape, dtype=_dtype.float32) -> Tensor:
    return Tensor._make(storage, shape, dtype, like.device)


def lu_solve(a: Tensor, b: Tensor | None):
    """(X (N, n, k) or None, aux (N, 4): det, sign, log|det|, info) for a (N, n, n), b (N, n, k) or None."""
    N, n, _ = a._shape
    k = 0 if b is None else b._shape[-1]
    if N == 0:
        from ..ops.creation import zeros
        return (None if b is None else zeros(b._shape, device=a.device)), zeros(0, 4, device=a.device)
    _, X, aux = _run("lu", N, n, n, k, (a, a if b is None else b), [N * n * n, N * n * k, N * 4])
    return (None if b is None else _t(X, a, (N, n, k))), _t(aux, a, (N, 4))


def cholesky(a: Tensor):
    N, n, _ = a._shape
    if N == 0:
        from ..ops.creation import zeros
        return zeros(a._shape, device=a.device), zeros(0, dtype=_dtype.int32, device=a.device)
    L, info = _run("cholesky", N, n, n, 0, (a,), [N * n * n, N])
    return _t(L, a, (N, n, n)), _t(info, a, (N,), _dtype.int32)


def qr(a: Tensor, k: int):
    """(Q (N, m, k), R (N, min(m, k)... rows, n)): k = min(m, n) (reduced) or m (complete)."""
    N, m, n = a._shape
    if N == 0:
        from ..ops.creation import zeros
        return zeros(N, m, k, device=a.device), zeros(N, k, n, device=a.device)
    r = min(m, n)
    R, Q, _ = _run("qr", N, m, n, k, (a,), [N * m * n, N * m * k, N * (m + 1) * r])
    Rt = _t(R, a, (N, m, n))
    return _t(Q, a, (N, m, k)), (Rt if k == m else Rt[:, :k, :])


def eigh(a: Tensor):
    N, n, _ = a._shape
    if N == 0:
        from ..ops.creation import zeros
        return zeros(N, n, device=a.device), zeros(N, n, n, device=a.device)
    _, _, w, V = _run("eigh", N, n, n, 0, (a,), [N * n * n, N * n * n, N * n, N * n * n])
    return _t(w, a, (N, n)), _t(V, a, (N, n, n))


def svd(a: Tensor):
    """(U (N, m, n), S (N, n), Vh (N, n, n)) for a (N, m, n) with m >= n."""
    N, m, n = a._shape
    if N == 0:
        from ..ops.creation import zeros
        return zeros(N, m, n, device=a.device), zeros(N, n, device=a.device), zeros(N, n, n, device=a.device)
    _, _, S, U, Vh = _run("svd", N, m, n, 0, (a,), [N * m * n, N * n * n, N * n, N * m * n, N * n * n])
    return _t(U, a, (N, m, n)), _t(S, a, (N, n)), _t(Vh, a, (N, n, n))
