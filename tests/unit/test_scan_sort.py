"""cumsum, cumprod, sort, argsort, topk on the cpu device: values, dtypes, views, errors and gradients,
checked against numpy (exact where the result is exact). The WebGPU kernels are checked against the same
numbers by the golden replay (tests/golden/replay.py --device webgpu)."""
from __future__ import annotations

import math

import numpy as np
import pytest

import borch_webgpu as torch

rng = np.random.default_rng(7)
NAN, INF = float("nan"), float("inf")


def t(a, **kw):
    return torch.tensor(np.asarray(a), **kw)


def same(got: torch.Tensor, want: np.ndarray) -> None:
    g = got.detach().numpy()
    want = np.asarray(want)
    assert g.shape == want.shape, (g.shape, want.shape)
    if g.dtype.kind == "f":
        np.testing.assert_array_equal(g, want.astype(g.dtype))
        assert (np.signbit(g[g == 0]) == np.signbit(want[want == 0])).all(), "signed zeros differ"
    else:
        np.testing.assert_array_equal(g, want)


# ---- cumsum / cumprod ------------------------------------------------------------------------------------
@pytest.mark.parametrize("shape,dim", [((5,), 0), ((5,), -1), ((3, 4), 0), ((3, 4), 1), ((2, 3, 4), -2),
                                       ((2, 3, 4), 0), ((1, 300), 1), ((0,), 0), ((3, 0), 1), ((3, 0), 0)])
def test_cumsum_cumprod_float_match_a_double_accumulation(shape, dim):
    a = rng.uniform(-2, 2, shape).astype(np.float32)
    same(torch.cumsum(t(a), dim), np.cumsum(a, dim, dtype=np.float64).astype(np.float32))
    same(torch.cumprod(t(a), dim), np.cumprod(a, dim, dtype=np.float64).astype(np.float32))


def test_cumsum_starts_from_positive_zero_like_pytorch():
    same(torch.cumsum(t(np.array([-0.0, -0.0, 1.0], np.float32)), 0), np.array([0.0, 0.0, 1.0], np.float32))
    same(torch.cumprod(t(np.array([-0.0, 2.0], np.float32)), 0), np.array([-0.0, -0.0], np.float32))


def test_cumsum_keeps_double_range_and_precision():
    # PyTorch accumulates float32 in double: a prefix may pass float32's range and come back
    a = np.array([3e38, 3e38, -3e38, 1e38, 1.0, -1e38], np.float32)
    with np.errstate(over="ignore"):
        want = np.cumsum(a.astype(np.float64)).astype(np.float32)
    assert math.isinf(want[1]) and math.isfinite(want[2])
    same(torch.cumsum(t(a), 0), want)


@pytest.mark.parametrize("dt", ["int64", "int32", "bool"])
def test_integers_and_bools_accumulate_in_int64(dt):
    a = rng.integers(-3, 4, (3, 5)).astype(dt)
    r = torch.cumsum(t(a), 1)
    assert r.dtype == torch.int64
    same(r, np.cumsum(a.astype(np.int64), 1))
    p = torch.cumprod(t(a), 0)
    assert p.dtype == torch.int64
    same(p, np.cumprod(a.astype(np.int64), 0))


def test_dtype_argument_casts_first():
    a = np.array([1.5, 2.5, -1.7], np.float32)
    r = torch.cumsum(t(a), 0, dtype=torch.int64)
    assert r.dtype == torch.int64 and r.tolist() == [1, 3, 2]
    r = torch.cumsum(t(np.array([1, 2], np.int64)), 0, dtype=torch.float32)
    assert r.dtype == torch.float32 and r.tolist() == [1.0, 3.0]
    assert torch.cumprod(t(np.array([2, 3], np.int32)), 0, dtype=torch.int32).dtype == torch.int32


def test_zero_dim_and_views():
    r = torch.cumsum(torch.tensor(3.5), 0)
    assert r.shape == () and r.item() == 3.5
    assert torch.cumprod(torch.tensor(True), -1).dtype == torch.int64
    a = rng.uniform(-1, 1, (4, 6)).astype(np.float32)
    same(torch.cumsum(t(a).t(), 1), np.cumsum(a.T, 1, dtype=np.float64).astype(np.float32))
    same(torch.cumsum(t(a)[:, 1::2], 1), np.cumsum(a[:, 1::2], 1, dtype=np.float64).astype(np.float32))
    same(torch.cumprod(t(a).expand(2, 4, 6), 0), np.cumprod(np.broadcast_to(a, (2, 4, 6)), 0, dtype=np.float64)
         .astype(np.float32))


def test_methods_and_in_place():
    a = rng.integers(-3, 4, (3, 4)).astype(np.int64)
    x = t(a)
    assert x.cumsum(1).tolist() == np.cumsum(a, 1).tolist()
    assert x.cumsum_(0) is x and x.tolist() == np.cumsum(a, 0).tolist()
    y = t(np.array([1, 2, 3], np.int32))
    y.cumprod_(0)
    assert y.dtype == torch.int32 and y.tolist() == [1, 2, 6]


def test_errors_match_pytorch():
    x = torch.ones(3, 4)
    with pytest.raises(IndexError, match="Dimension out of range"):
        torch.cumsum(x, 2)
    with pytest.raises(TypeError):
        torch.cumsum(x)
    with pytest.raises(TypeError, match="must be int, not float"):
        torch.cumsum(x, 0.5)
    with pytest.raises(NotImplementedError, match="not implemented for 'Bool'"):
        torch.cumsum(x.long(), 0, dtype=torch.bool)
    with pytest.raises(NotImplementedError, match="not implemented for 'Bool'"):
        torch.ones(3, dtype=torch.bool).cumsum_(0)
    with pytest.raises(RuntimeError, match="Bad in-place call"):
        torch.ones(3, dtype=torch.int32).cumsum_(0, dtype=torch.int64)
    with pytest.raises(RuntimeError, match="Autograd not support dtype: Long"):
        torch.cumsum(torch.ones(3, requires_grad=True), 0, dtype=torch.int64)


def _grad(fn, a, g, create_graph=False):
    x = t(a, requires_grad=True)
    out = fn(x)
    out.backward(t(g), create_graph=create_graph)
    return x, out


def test_cumsum_gradient_is_the_reverse_cumsum():
    a = rng.uniform(-1, 1, (3, 7)).astype(np.float32)
    g = rng.uniform(-1, 1, (3, 7)).astype(np.float32)
    x, out = _grad(lambda v: torch.cumsum(v, 1), a, g)
    assert out.grad_fn.name() == "CumsumBackward0"
    want = np.flip(np.cumsum(np.flip(g, 1), 1, dtype=np.float64), 1).astype(np.float32)
    same(x.grad, want)


def _cumprod_grad_brute(a: np.ndarray, g: np.ndarray) -> np.ndarray:
    """dF/dx_k = sum over j >= k of g_j * prod(x_i for i <= j, i != k), in float64, along the last dim."""
    out = np.zeros(a.shape)
    for row in np.ndindex(a.shape[:-1]):
        x, gr = a[row].astype(np.float64), g[row].astype(np.float64)
        n = len(x)
        for k in range(n):
            out[row + (k,)] = sum(gr[j] * np.prod(np.delete(x[:j + 1], k)) for j in range(k, n))
    return out


@pytest.mark.parametrize("zeros", [[], [(0, 2)], [(1, 1), (1, 3)], [(2, 0)], [(0, 5)], [(1, 0), (1, 1), (2, 5)]])
def test_cumprod_gradient_handles_zeros(zeros):
    a = rng.uniform(0.5, 1.5, (3, 6)).astype(np.float32) * np.where(rng.uniform(size=(3, 6)) < 0.5, -1, 1)
    a = a.astype(np.float32)
    for z in zeros:
        a[z] = 0.0
    g = rng.uniform(-1, 1, (3, 6)).astype(np.float32)
    x, out = _grad(lambda v: torch.cumprod(v, 1), a, g)
    assert out.grad_fn.name() == "CumprodBackward0"
    np.testing.assert_allclose(x.grad.numpy(), _cumprod_grad_brute(a, g), rtol=1e-5, atol=1e-6)


def test_cumprod_gradient_along_a_leading_dim_and_length_one():
    a = rng.uniform(0.5, 1.5, (4, 3)).astype(np.float32)
    a[1, 2] = 0.0
    g = rng.uniform(-1, 1, (4, 3)).astype(np.float32)
    x, _ = _grad(lambda v: torch.cumprod(v, 0), a, g)
    np.testing.assert_allclose(x.grad.numpy(), _cumprod_grad_brute(a.T, g.T).T, rtol=1e-5, atol=1e-6)
    x, _ = _grad(lambda v: torch.cumprod(v, 1), a[:, :1].copy(), g[:, :1].copy())
    same(x.grad, g[:, :1])


def test_second_order_gradient_of_cumsum():
    a = rng.uniform(-1, 1, (5,)).astype(np.float32)
    x = t(a, requires_grad=True)
    (gx,) = torch.autograd.grad(torch.cumsum(x, 0).pow(2).sum(), x, create_graph=True)
    gx.sum().backward()
    # grad_i = sum_{j >= i} 2 y_j, so d grad_i / d x_k = 2 (n - max(i, k))
    n = len(a)
    H = np.array([[2.0 * (n - max(i, k)) for k in range(n)] for i in range(n)])
    np.testing.assert_allclose(x.grad.numpy(), H.sum(0), rtol=1e-6)


# ---- sort / argsort / topk ---------------------------------------------------------------------------------
def _key_order(vals, descending: bool):
    """PyTorch's order as a Python sort key: NaN above +inf, -0.0 == +0.0, stable by index."""
    def key(i):
        v = vals[i]
        big = isinstance(v, float) and math.isnan(v)
        rank = (1, 0.0) if big else (0, float(v) + 0.0)
        if descending:
            rank = (-rank[0], -rank[1])
        return rank
    return sorted(range(len(vals)), key=key)


@pytest.mark.parametrize("descending", [False, True])
def test_sort_orders_nan_last_and_is_stable(descending):
    vals = [3.0, NAN, -0.0, 0.0, 1.0, -INF, INF, 1.0, NAN, 0.0, -0.0, -2.5]
    r = torch.sort(t(np.array(vals, np.float32)), descending=descending)
    want = _key_order(vals, descending)
    assert r.indices.tolist() == want
    same(r.values, np.array(vals, np.float32)[want])
    assert type(r) is torch.return_types.sort and isinstance(r, tuple)  # a structseq, as PyTorch: no _fields
    assert torch.argsort(t(np.array(vals, np.float32)), descending=descending, stable=False).tolist() == want


@pytest.mark.parametrize("dt", ["float32", "int64", "int32", "bool"])
@pytest.mark.parametrize("n", [1, 2, 3, 17, 255, 256, 257, 2049])
def test_sort_matches_a_stable_numpy_sort(dt, n):
    a = rng.integers(-4, 5, (2, n)).astype(dt) if dt != "float32" else (rng.integers(-4, 5, (2, n)) / 2).astype(dt)
    for desc in (False, True):
        key = a.astype(np.int64) if dt != "float32" else a
        idx = np.argsort(-key if desc else key, axis=1, kind="stable")
        r = torch.sort(t(a), 1, desc)
        same(r.indices, idx)
        same(r.values, np.take_along_axis(a, idx, 1))
        assert r.values.dtype == t(a).dtype and r.indices.dtype == torch.int64


def test_sort_dims_views_zero_size_and_zero_dim():
    a = rng.uniform(-1, 1, (3, 4, 5)).astype(np.float32)
    for d in (-3, -2, -1, 0, 1, 2):
        same(torch.sort(t(a), d).indices, np.argsort(a, d, kind="stable"))
    v = t(a).permute(2, 0, 1)[:, 1:, ::2]
    same(torch.sort(v, 1).values, np.sort(np.transpose(a, (2, 0, 1))[:, 1:, ::2], 1))
    r = torch.sort(torch.zeros(3, 0), 1)
    assert r.values.shape == (3, 0) and r.indices.dtype == torch.int64
    r = torch.sort(torch.tensor(2.5))
    assert r.values.shape == () and r.values.item() == 2.5 and r.indices.item() == 0
    assert t(np.array([[3, 1], [2, 4]])).msort().tolist() == [[2, 1], [3, 4]]
    with pytest.raises(IndexError):
        torch.sort(t(a), 3)


def test_topk_values_indices_ties_and_nan():
    vals = np.array([1.0, NAN, 3.0, -INF, INF, 0.5, 3.0, 1.0], np.float32)
    r = torch.topk(t(vals), 4)
    assert r.indices.tolist() == [1, 4, 2, 6]           # NaN is the largest; ties lowest index first
    assert type(r).__name__ == "topk"
    r = torch.topk(t(vals), 3, largest=False)
    assert r.indices.tolist() == [3, 5, 0]
    a = rng.permutation(40).reshape(5, 8).astype(np.float32)
    r = torch.topk(t(a), 3, dim=0, largest=False, sorted=False)
    idx = np.argsort(a, 0, kind="stable")[:3]
    same(r.indices, idx)
    same(r.values, np.take_along_axis(a, idx, 0))
    assert torch.topk(t(a), 0).values.shape == (5, 0)
    assert torch.topk(t(a), torch.tensor(2)).values.shape == (5, 2)
    r = torch.topk(torch.tensor(4.0), 1)
    assert r.values.item() == 4.0 and r.indices.item() == 0


def test_topk_errors():
    x = torch.ones(10)
    for k in (11, -1):
        with pytest.raises(RuntimeError, match="selected index k out of range"):
            torch.topk(x, k)
    with pytest.raises(RuntimeError, match="selected index k out of range"):
        torch.topk(torch.tensor(1.0), 2)
    with pytest.raises(TypeError, match="must be int, not float"):
        torch.topk(x, 1.5)
    with pytest.raises(IndexError):
        torch.topk(torch.ones(3, 8), 2, dim=2)


def test_sort_and_topk_gradients_scatter_back():
    a = rng.permutation(24).reshape(3, 8).astype(np.float32)
    g = rng.uniform(-1, 1, (3, 8)).astype(np.float32)
    x, out = _grad(lambda v: torch.sort(v, 1, descending=True).values, a, g)
    assert out.grad_fn.name() == "SortBackward0"
    idx = np.argsort(-a, 1, kind="stable")
    want = np.zeros_like(a)
    np.put_along_axis(want, idx, g, 1)
    same(x.grad, want)
    g2 = rng.uniform(-1, 1, (2, 8)).astype(np.float32)
    x, out = _grad(lambda v: torch.topk(v, 2, dim=0).values, a, g2)
    assert out.grad_fn.name() == "TopkBackward0"
    want = np.zeros_like(a)
    np.put_along_axis(want, np.argsort(-a, 0, kind="stable")[:2], g2, 0)
    same(x.grad, want)
    # a transposed input and an expanded upstream gradient
    x = t(a, requires_grad=True)
    torch.sort(x.t(), 0).values.sum().backward()
    same(x.grad, np.ones_like(a))


def test_sort_second_order_gradient():
    a = rng.permutation(6).astype(np.float32)
    x = t(a, requires_grad=True)
    w = t(np.arange(6, dtype=np.float32))
    (gx,) = torch.autograd.grad((torch.sort(x).values.pow(2) * w).sum(), x, create_graph=True)
    rank = np.argsort(np.argsort(a, kind="stable"), kind="stable").astype(np.float32)
    same(gx, 2 * rank * a)
    gx.sum().backward()
    same(x.grad, 2 * rank)


def test_indices_do_not_require_grad():
    x = torch.ones(4, requires_grad=True)
    r = torch.sort(x)
    assert r.values.requires_grad and not r.indices.requires_grad
    assert not torch.argsort(x).requires_grad
