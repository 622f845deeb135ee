"""Matrix products (matmul, mm, bmm, mv, dot, outer, addmm, baddbmm, einsum) against numpy: float64
references with a tolerance scaled by the reduction length K, integers exactly.

pytest runs every check on the cpu device. The same file runs the same checks on WebGPU inside
Chromium (or Node + Dawn with --node): ``python -m borch_webgpu.run tests/unit/test_linalg.py``. The
shapes are chosen to reach every kernel path of device/gpu_matmul.py: sizes off the tile grid
(1, 3, 17, 33, 65, 130), 64- and 128-wide tiles, split K, the vector kernel in both thread layouts,
transposed, sliced and broadcast operands, batch dims that no stride pattern merges, zero sizes.
"""
from __future__ import annotations

import itertools
import sys

import numpy as np

import borch_webgpu as torch

try:
    import pytest
except ImportError:  # inside Pyodide
    pytest = None

CHECKS = []


def check(fn):
    CHECKS.append(fn)
    return fn


def rnd(*shape, seed=None, dtype=np.float32):
    rng = np.random.default_rng(seed if seed is not None else hash(shape) & 0xFFFF)
    if np.dtype(dtype).kind == "i":
        return rng.integers(-9, 10, size=shape).astype(dtype)
    return rng.uniform(-1, 1, size=shape).astype(dtype)


def T(a, dev, grad=False):
    t = torch.tensor(a, device=dev)
    return t.requires_grad_(True) if grad else t


def same(got, want, K=1, rtol=1e-5, what=""):
    """got (a tensor) against want (numpy, computed in float64 for floats). Each of K float32
    products and sums rounds by 2^-24 of partial sums that grow like sqrt(K) for these inputs
    (|x| <= 1): 2e-7 * K is about 10x the typical accumulated error."""
    g = got.detach().numpy() if isinstance(got, torch.Tensor) else np.asarray(got)
    w = np.asarray(want)
    assert g.shape == w.shape, f"{what}: shape {g.shape} != {w.shape}"
    if w.dtype.kind in "iub":
        assert np.array_equal(g, w), f"{what}: integers differ"
        return
    np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=rtol, atol=1e-6 + 2e-7 * K,
                               err_msg=what)


def np_grads(a, b, g):
    """numpy gradients of matmul(a, b) for upstream g (any of the 1-D/N-D forms)."""
    a2 = a[None, :] if a.ndim == 1 else a
    b2 = b[:, None] if b.ndim == 1 else b
    g2 = np.asarray(g)
    if b.ndim == 1:
        g2 = np.expand_dims(g2, -1)
    if a.ndim == 1:
        g2 = np.expand_dims(g2, -2)
    ga = g2.astype(np.float64) @ np.swapaxes(b2, -1, -2).astype(np.float64)
    gb = np.swapaxes(a2, -1, -2).astype(np.float64) @ g2.astype(np.float64)
    return _sum_to(ga, a2.shape).reshape(a.shape), _sum_to(gb, b2.shape).reshape(b.shape)


def _sum_to(x, shape):
    while x.ndim > len(shape):
        x = x.sum(0)
    for d, s in enumerate(shape):
        if s == 1 and x.shape[d] != 1:
            x = x.sum(d, keepdims=True)
    return x


FORMS = [((4,), (4,)), ((3, 4), (4,)), ((4,), (4, 5)), ((3, 4), (4, 5)), ((2, 3, 4), (2, 4, 5)),
         ((2, 1, 3, 4), (5, 4, 2)), ((2, 3, 4), (4,)), ((4,), (2, 4, 5)), ((3, 4), (2, 4, 5)), ((2, 3, 4), (4, 5)),
         ((3, 1, 2, 5), (1, 4, 5, 3)), ((1, 300), (300, 1))]


@check
def matmul_forms_and_gradients(dev):
    for sa, sb in FORMS:
        a, b = rnd(*sa), rnd(*sb)
        ta, tb = T(a, dev, True), T(b, dev, True)
        r = ta @ tb
        want = np.matmul(a.astype(np.float64), b.astype(np.float64))
        same(r, want, sa[-1], what=f"{sa} @ {sb}")
        g = rnd(*want.shape, seed=3)
        r.backward(T(g, dev))
        ga, gb = np_grads(a, b, g)
        same(ta.grad, ga, max(want.size, 1), what=f"grad a {sa} @ {sb}")
        same(tb.grad, gb, max(want.size, 1), what=f"grad b {sa} @ {sb}")


@check
def sizes_off_the_tile_grid(dev):
    sizes = (1, 3, 17, 33, 65, 130)
    combos = [c for c in itertools.product(sizes, repeat=3) if c[0] * c[1] * c[2] <= 130 * 130 * 33]
    for M, N, K in combos[::3] + [(130, 130, 130), (65, 1, 130), (1, 65, 130)]:
        a, b = rnd(M, K), rnd(K, N)
        same(T(a, dev) @ T(b, dev), a.astype(np.float64) @ b, K, what=f"{M}x{K} @ {K}x{N}")


@check
def big_tiles_and_split_k(dev):
    # 8 x 5 x 5 = 200 tiles of 128: the 8x8-per-thread kernel, edges off the grid
    a, b = rnd(8, 520, 24), rnd(8, 24, 513)
    same(torch.bmm(T(a, dev), T(b, dev)), np.matmul(a.astype(np.float64), b), 24, what="128-tiles")
    # the same with A transposed (m contiguous) and B transposed (k contiguous)
    same(torch.bmm(T(np.swapaxes(a, 1, 2).copy(), dev).transpose(1, 2), T(np.swapaxes(b, 1, 2).copy(), dev).mT),
         np.matmul(a.astype(np.float64), b), 24, what="128-tiles transposed")
    # 128 x 64 and 64 x 128 tiles (4 x 8 x 5 = 160 of them)
    a, b = rnd(4, 1000, 16), rnd(4, 16, 300)
    same(torch.bmm(T(a, dev), T(b, dev)), np.matmul(a.astype(np.float64), b), 16, what="128x64 tiles")
    same(torch.bmm(T(b, dev).mT, T(a, dev).mT), np.matmul(np.swapaxes(b, 1, 2).astype(np.float64),
                                                            np.swapaxes(a, 1, 2)), 16, what="64x128 tiles")
    # few tiles, long K: split over K, then summed with the epilogue
    a, b, c = rnd(100, 3000), rnd(3000, 70), rnd(70)
    want = a.astype(np.float64) @ b
    same(T(a, dev) @ T(b, dev), want, 3000, what="split-K")
    same(torch.addmm(T(c, dev), T(a, dev), T(b, dev), beta=0.5, alpha=2.0), 0.5 * c + 2 * want, 3000,
         what="split-K addmm")
    same(T(a.T.copy(), dev).t() @ T(b.T.copy(), dev).t(), want, 3000, what="split-K transposed")
    # one output tile of either kernel (software adapters split only below 4 tiles)
    a, b = rnd(20, 3000), rnd(3000, 30)
    same(T(a, dev) @ T(b, dev), a.astype(np.float64) @ b, 3000, what="split-K one tile")
    ai, bi = rnd(40, 2000, dtype=np.int32), rnd(2000, 30, dtype=np.int32)
    same(T(ai, dev) @ T(bi, dev), ai.astype(np.int64) @ bi, what="split-K int32")


@check
def vector_kernel_layouts(dev):
    x, W, bias = rnd(1, 300), rnd(70, 300), rnd(70)
    want = x.astype(np.float64) @ W.T.astype(np.float64)
    same(T(x, dev) @ T(W, dev).t(), want, 300, what="x @ W.t() (k contiguous)")
    same(torch.addmm(T(bias, dev), T(x, dev), T(W, dev).t()), want + bias, 300, what="linear, batch 1")
    same(T(x, dev) @ T(W.T.copy(), dev), want, 300, what="x @ W (n contiguous)")
    same(torch.mv(T(W, dev), T(x[0], dev)), W.astype(np.float64) @ x[0], 300, what="mv")
    same(torch.mv(T(W.T.copy(), dev).t(), T(x[0], dev)), W.astype(np.float64) @ x[0], 300, what="mv transposed")
    v = rnd(100000)
    same(torch.dot(T(v, dev), T(v[::-1].copy(), dev)), np.dot(v.astype(np.float64), v[::-1]), 100000, what="dot")
    # few outputs, long K: K split across workgroups, then summed with the epilogue
    x, W, bias = rnd(1, 2000), rnd(2000, 100), rnd(100)
    same(torch.addmm(T(bias, dev), T(x, dev), T(W, dev)), bias + x.astype(np.float64) @ W, 2000,
         what="split gemv, n contiguous")
    A, v, c = rnd(50, 3000), rnd(3000, 1), rnd(50, 1)
    same(torch.addmm(T(c, dev), T(A, dev), T(v, dev), beta=-1.0), A.astype(np.float64) @ v - c, 3000,
         what="split gemv, N == 1, column bias")
    xb, Wb = rnd(5, 1, 40), rnd(5, 40, 9)
    same(torch.bmm(T(xb, dev), T(Wb, dev)), np.matmul(xb.astype(np.float64), Wb), 40, what="batched gemv")
    same(torch.bmm(T(Wb, dev).mT, T(xb, dev).mT), np.matmul(np.swapaxes(Wb, 1, 2).astype(np.float64),
                                                              np.swapaxes(xb, 1, 2)), 40, what="batched N == 1")


@check
def strided_operands(dev):
    base = rnd(12, 20)
    tb = T(base, dev)
    a, an = tb[1::2, 3:15:2], base[1::2, 3:15:2]          # (6, 6) with strides (40, 2), offset 23
    b, bn = tb[:, ::3].t()[:, 2:8], base[:, ::3].T[:, 2:8]  # (7, 6) transposed and sliced
    same(a @ b.t(), an.astype(np.float64) @ bn.T, 6, what="sliced @ sliced")
    e = T(rnd(3, 4), dev).expand(5, 3, 4)
    same(e @ T(rnd(5, 4, 2), dev), np.matmul(rnd(3, 4).astype(np.float64), rnd(5, 4, 2)), 4, what="expanded batch")
    p = T(rnd(4, 2, 3), dev).permute(1, 0, 2)
    same(p @ T(rnd(3, 5), dev), np.matmul(np.transpose(rnd(4, 2, 3), (1, 0, 2)).astype(np.float64), rnd(3, 5)), 3,
         what="permuted batch (not foldable)")
    # six broadcast batch dims that no stride pattern merges (more than the kernel's 4): copied once
    a6, b6 = rnd(2, 1, 2, 1, 2, 1, 3, 4), rnd(1, 2, 1, 2, 1, 2, 4, 5)
    same(T(a6, dev) @ T(b6, dev), np.matmul(a6.astype(np.float64), b6), 4, what="rank-6 batch")


@check
def zero_sizes(dev):
    for sa, sb in [((3, 0), (0, 4)), ((0, 4), (4, 5)), ((3, 4), (4, 0)), ((0,), (0,)), ((2, 0, 3), (3, 4)),
                   ((0, 3, 4), (0, 4, 5))]:
        a, b = rnd(*sa), rnd(*sb)
        same(T(a, dev) @ T(b, dev), np.matmul(a, b).astype(np.float64), what=f"{sa} @ {sb}")
    c = rnd(3, 5)
    same(torch.addmm(T(c, dev), T(rnd(3, 0), dev), T(rnd(0, 5), dev), beta=2.0), 2 * c, what="addmm K = 0")


@check
def integers(dev):
    for dt in (np.int32, np.int64):
        a, b = rnd(17, 33, dtype=dt), rnd(33, 9, dtype=dt)
        r = T(a, dev) @ T(b, dev)
        assert r.dtype is (torch.int32 if dt is np.int32 else torch.int64)
        same(r, a.astype(np.int64) @ b, what=f"{dt.__name__} matmul")
        same(torch.addmm(T(b[:1, :], dev), T(a, dev), T(b, dev), beta=2, alpha=3), 2 * b[:1] + 3 * (a @ b),
             what="int addmm")
        same(torch.dot(T(a[0], dev), T(b[:, 0], dev)), np.dot(a[0], b[:, 0]), what="int dot")


@check
def addmm_and_baddbmm(dev):
    a, b = rnd(33, 17), rnd(17, 65)
    ab = a.astype(np.float64) @ b
    for cshape in [(33, 65), (65,), (33, 1), (), (1, 1)]:
        c = rnd(*cshape)
        same(torch.addmm(T(c, dev), T(a, dev), T(b, dev), beta=0.5, alpha=-1.5), 0.5 * c - 1.5 * ab, 17,
             what=f"addmm bias {cshape}")
    nan = np.full((33, 65), np.nan, np.float32)
    same(torch.addmm(T(nan, dev), T(a, dev), T(b, dev), beta=0), ab, 17, what="beta=0 ignores NaN")
    inf = np.full((33, 17), np.inf, np.float32)
    c = rnd(33, 65)
    same(torch.addmm(T(c, dev), T(inf, dev), T(b, dev), alpha=0), c, what="alpha=0 ignores the product")
    x, y, c = rnd(3, 17, 9), rnd(3, 9, 33), rnd(33)
    same(torch.baddbmm(T(c, dev), T(x, dev), T(y, dev), beta=2.0, alpha=0.25),
         2 * c + 0.25 * np.matmul(x.astype(np.float64), y), 9, what="baddbmm")
    t = T(rnd(33, 65), dev)
    t.addmm_(T(a, dev), T(b, dev), beta=0.5)
    same(t, 0.5 * rnd(33, 65) + ab, 17, what="addmm_")


@check
def addmm_gradients(dev):
    c, a, b = rnd(5), rnd(3, 4), rnd(4, 5)
    tc, ta, tb = T(c, dev, True), T(a, dev, True), T(b, dev, True)
    torch.addmm(tc, ta, tb, beta=0.5, alpha=2.0).backward(T(rnd(3, 5, seed=1), dev))
    g = rnd(3, 5, seed=1).astype(np.float64)
    same(tc.grad, 0.5 * g.sum(0), 3, what="grad input")
    same(ta.grad, 2 * g @ b.T, 5, what="grad mat1")
    same(tb.grad, 2 * a.T @ g, 3, what="grad mat2")


EINSUM = [("ij,jk->ik", (3, 4), (4, 5)), ("bij,bjk->bik", (2, 3, 4), (2, 4, 5)), ("i,i->", (5,), (5,)),
          ("ij->ji", (3, 4)), ("ii->i", (4, 4)), ("ii", (4, 4)), ("bhqd,bhkd->bhqk", (2, 3, 4, 5), (2, 3, 6, 5)),
          ("ij,j->i", (3, 4), (4,)), ("i,j->ij", (3,), (4,)), ("ij,jk", (3, 4), (4, 5)), ("ba,ca", (3, 4), (5, 4)),
          ("...ij,jk->...ik", (2, 2, 3, 4), (4, 5)), ("bn,anm,bm->ba", (2, 3), (4, 3, 5), (2, 5)),
          ("iij,jk->ik", (3, 3, 4), (4, 2)), ("ij,ij->i", (3, 4), (3, 4)), ("i,i,i->i", (4,), (4,), (4,)),
          ("b i j , b j k -> b i k", (2, 3, 4), (2, 4, 5)), ("ij,kj->", (3, 4), (5, 4))]


@check
def einsum_patterns_and_gradients(dev):
    for eq, *shapes in EINSUM:
        xs = [rnd(*s) for s in shapes]
        ts = [T(x, dev, True) for x in xs]
        r = torch.einsum(eq, *ts)
        want = np.einsum(eq.replace(" ", ""), *[x.astype(np.float64) for x in xs])
        same(r, want, 30, what=eq)
        r.sum().backward()
        for i, (x, t) in enumerate(zip(xs, ts)):
            # d sum(einsum) / d x_i by central differences of the exact (float64, linear in x_i) einsum
            gw = np.zeros(x.shape)
            for idx in np.ndindex(x.shape):
                e = np.zeros(x.shape)
                e[idx] = 1.0
                args = [x2.astype(np.float64) if j != i else e for j, x2 in enumerate(xs)]
                gw[idx] = np.einsum(eq.replace(" ", ""), *args).sum()
            same(t.grad, gw, 30, what=f"grad {i} of {eq}")
    a = rnd(3, 4)
    same(torch.einsum(T(a, dev), [0, 1], T(rnd(4, 5), dev), [1, 2], [0, 2]), a.astype(np.float64) @ rnd(4, 5), 4,
         what="sublist form")


@check
def float16(dev):
    if dev == "webgpu" and "shader-f16" not in torch.webgpu.adapter_info()["features"]:
        return
    a, b = rnd(17, 33).astype(np.float16), rnd(33, 9).astype(np.float16)
    r = T(a, dev) @ T(b, dev)
    assert r.dtype is torch.float16
    same(r, a.astype(np.float64) @ b, rtol=2e-3, K=2e3, what="float16")


@check
def errors_like_pytorch(dev):
    f, i, bo = T(rnd(3, 4), dev), T(rnd(4, 2, dtype=np.int64), dev), torch.ones(3, 3, dtype=torch.bool, device=dev)
    cases = [
        (lambda: torch.matmul(T(rnd(3, 4), dev), T(rnd(5, 6), dev)), RuntimeError,
         "mat1 and mat2 shapes cannot be multiplied (3x4 and 5x6)"),
        (lambda: torch.matmul(torch.tensor(1.0, device=dev), T(rnd(2, 2), dev)), RuntimeError,
         "both arguments to matmul need to be at least 1D, but they are 0D and 2D"),
        (lambda: f @ i, RuntimeError, "expected m1 and m2 to have the same dtype, but got: float != long int"),
        (lambda: bo @ bo, RuntimeError, "\"addmm_impl_cpu_\" not implemented for 'Bool'"),
        (lambda: torch.dot(T(rnd(4), dev), T(rnd(5), dev)), RuntimeError, "inconsistent tensor size"),
        (lambda: torch.bmm(T(rnd(2, 3, 4), dev), T(rnd(3, 4, 5), dev)), RuntimeError,
         "batch1 and batch2 must have same number of batches, got 2 and 3"),
        (lambda: torch.mm(T(rnd(4), dev), T(rnd(4, 2), dev)), RuntimeError, "self must be a matrix"),
        (lambda: torch.matmul(T(rnd(2, 3, 4), dev), T(rnd(3, 4, 5), dev)), RuntimeError,
         "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0"),
        (lambda: torch.addmm(i, T(rnd(4, 4, dtype=np.int64), dev), i, alpha=0.5), RuntimeError,
         "argument alpha must not be a floating point number"),
        (lambda: torch.einsum("ij,jk->il", T(rnd(3, 4), dev), T(rnd(4, 5), dev)), RuntimeError,
         "output subscript l does not appear"),
        (lambda: torch.einsum("ij,jk->ik", T(rnd(3, 4), dev)), RuntimeError, "fewer operands"),
    ]
    for fn, exc, text in cases:
        try:
            fn()
        except exc as e:
            assert text in str(e), f"{text!r} not in {str(e)!r}"
        else:
            raise AssertionError(f"did not raise {exc.__name__}: {text}")


if pytest is not None:
    @pytest.mark.parametrize("fn", CHECKS, ids=[f.__name__ for f in CHECKS])
    def test_cpu(fn):
        fn("cpu")


def main() -> int:
    """Every check on the default device; on WebGPU twice, through the software adapters' gemm_sw
    kernel and the GPUs' gemm kernel (forced either way, whatever the adapter is)."""
    dev = torch.get_default_device().type
    kernels = [None]
    if dev == "webgpu":
        from borch_webgpu.device import gpu_matmul
        kernels = [True, False]
    failed = total = 0
    for software in kernels:
        tag = "" if software is None else (" [gemm_sw]" if software else " [gemm]")
        if software is not None:
            gpu_matmul._software = software
        for fn in CHECKS:
            total += 1
            try:
                fn(dev)
                print(f"ok   {fn.__name__}{tag}")
            except Exception as e:  # noqa: BLE001 - report every check
                failed += 1
                print(f"FAIL {fn.__name__}{tag}: {type(e).__name__}: {e}")
    if dev == "webgpu":
        gpu_matmul._software = None
    print(f"linalg checks on {dev}: {total - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
