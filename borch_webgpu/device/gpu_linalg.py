"""torch.linalg's decompositions on the ``webgpu`` device: the kernels of wgsl/linalg.wgsl, one workgroup
of 64 threads per matrix of the batch (ops/_linalg_core.py calls these with contiguous float32
(N, m, n) tensors, N > 0, and wraps the storages they return). Each kernel copies its matrix into a
workspace buffer of its own and works there.

Pipeline keys: ("linalg", kernel). Sizes travel in the uniform block (words: N, m, n, k, input
offset, B's offset), so one pipeline serves every shape. The work per matrix is O(n^3) (LU,
Cholesky, QR) or O(sweeps * n^3) (the Jacobi methods, sweeps <= 30, typically 6-10) on 64 threads:
meant for the small and medium matrices (n up to a few hundred) that torch programs invert or
decompose, not for large dense linear algebra.
"""
from __future__ import annotations

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


def lu_solve(a, b):
    """(LU (N, m, n), X (N, n, k) or None, aux (N, 4 + min(m, n)): det, sign, log|det|, info, pivots) for
    a (N, m, n), b (N, n, k) (m == n) or None."""
    N, m, n = a._shape
    k = 0 if b is None else b._shape[-1]
    LU, X, aux = _run("lu", N, m, n, k, (a, a if b is None else b), [N * m * n, N * n * k, N * (4 + min(m, n))])
    return LU, (None if b is None else X), aux


def cholesky(a):
    """(L (N, n, n), info int32 (N,)); A's lower triangle is read."""
    N, n, _ = a._shape
    return tuple(_run("cholesky", N, n, n, 0, (a,), [N * n * n, N]))


def qr(a, k: int):
    """(Q (N, m, k), R (N, m, n): R's first k rows are the result, H (N, m + 1, min(m, n)): the reflectors
    (column c: v with v[c] = 1, zeros above) and in the last row their tau) for k = min(m, n) or m
    (complete), or 0 (reflectors only)."""
    N, m, n = a._shape
    R, Q, H = _run("qr", N, m, n, k, (a,), [N * m * n, N * m * k, N * (m + 1) * min(m, n)])
    return Q, R, H


def eigh(a):
    """(w (N, n) ascending, V (N, n, n)) of the symmetric a."""
    N, n, _ = a._shape
    _, _, w, V = _run("eigh", N, n, n, 0, (a,), [N * n * n, N * n * n, N * n, N * n * n])
    return w, V


def svd(a):
    """(U (N, m, n), S (N, n), Vh (N, n, n)) for a (N, m, n) with m >= n."""
    N, m, n = a._shape
    _, _, S, U, Vh = _run("svd", N, m, n, 0, (a,), [N * m * n, N * n * n, N * n, N * m * n, N * n * n])
    return U, S, Vh
