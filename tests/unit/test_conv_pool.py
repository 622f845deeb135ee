"""Convolution, pooling and resampling against independent numpy references written as direct loops
over tiny shapes (float64), forward and gradients; on WebGPU also against the cpu device on larger
shapes, through every tile shape of the conv kernels.

pytest runs every check on the cpu device. The same file runs them on WebGPU inside Chromium (or
Node + Dawn with --node): ``python -m borch_webgpu.run tests/unit/test_conv_pool.py``; the checks
named ``webgpu_*`` run only there. Expected values from PyTorch itself are the golden suite's.
"""
from __future__ import annotations

import itertools
import math
import sys
import warnings

import numpy as np

import borch_webgpu as torch
import borch_webgpu.nn.functional as F

try:
    import pytest
except ImportError:  # inside Pyodide
    pytest = None

CHECKS = []


def check(fn):
    CHECKS.append(fn)
    return fn


def rnd(*shape, seed=0):
    return np.random.default_rng(seed + 7 * len(shape) + sum(shape)).uniform(-1, 1, size=shape).astype(np.float32)


def T(a, dev, grad=False):
    t = torch.tensor(a, device=dev)
    return t.requires_grad_(True) if grad else t


def same(got, want, K=1, what="", exact=False):
    """got (tensor) against want (numpy, float64): each output is a sum of K float32 products of values
    in [-1, 1); 2e-7 * K is about 10x the accumulated rounding."""
    g = got.detach().numpy() if isinstance(got, torch.Tensor) else np.asarray(got)
    w = np.asarray(want)
    assert g.shape == w.shape, f"{what}: shape {g.shape} != {w.shape}"
    if exact or w.dtype.kind in "iub":
        assert np.array_equal(g, w, equal_nan=w.dtype.kind == "f"), f"{what}: values differ\n{g}\n{w}"
        return
    np.testing.assert_allclose(g.astype(np.float64), w, rtol=1e-5, atol=1e-6 + 2e-7 * K, err_msg=what)


# ---- direct-loop references --------------------------------------------------------------------------
def ref_conv2d(x, w, b, gy, stride, pads, dil, groups):
    """y, dx, dw, db of a 2-D convolution by loops; pads ((top, bottom), (left, right))."""
    x, w = x.astype(np.float64), w.astype(np.float64)
    N, C, H, W = x.shape
    CO, CG, KH, KW = w.shape
    (pt, pb), (pl, pr) = pads
    OH = (H + pt + pb - dil[0] * (KH - 1) - 1) // stride[0] + 1
    OW = (W + pl + pr - dil[1] * (KW - 1) - 1) // stride[1] + 1
    y = np.zeros((N, CO, OH, OW))
    dx, dw = np.zeros_like(x), np.zeros_like(w)
    for co, oh, ow in itertools.product(range(CO), range(OH), range(OW)):
        g = co // (CO // groups)
        if b is not None:
            y[:, co, oh, ow] += b[co]
        for ci, kh, kw in itertools.product(range(CG), range(KH), range(KW)):
            ih, iw = oh * stride[0] - pt + kh * dil[0], ow * stride[1] - pl + kw * dil[1]
            if 0 <= ih < H and 0 <= iw < W:
                c = g * CG + ci
                y[:, co, oh, ow] += x[:, c, ih, iw] * w[co, ci, kh, kw]
                dx[:, c, ih, iw] += gy[:, co, oh, ow] * w[co, ci, kh, kw]
                dw[co, ci, kh, kw] += (gy[:, co, oh, ow] * x[:, c, ih, iw]).sum()
    return y, dx, dw, gy.astype(np.float64).sum((0, 2, 3))


def ref_conv_transpose2d(x, w, b, gy, stride, pad, opad, groups, dil):
    x, w = x.astype(np.float64), w.astype(np.float64)
    N, CI, H, W = x.shape
    _, COG, KH, KW = w.shape
    HO = (H - 1) * stride[0] - 2 * pad[0] + dil[0] * (KH - 1) + opad[0] + 1
    WO = (W - 1) * stride[1] - 2 * pad[1] + dil[1] * (KW - 1) + opad[1] + 1
    y = np.zeros((N, COG * groups, HO, WO))
    dx, dw = np.zeros_like(x), np.zeros_like(w)
    for ci, i, j, co, kh, kw in itertools.product(range(CI), range(H), range(W), range(COG), range(KH), range(KW)):
        oh, ow = i * stride[0] - pad[0] + kh * dil[0], j * stride[1] - pad[1] + kw * dil[1]
        if 0 <= oh < HO and 0 <= ow < WO:
            oc = (ci // (CI // groups)) * COG + co
            y[:, oc, oh, ow] += x[:, ci, i, j] * w[ci, co, kh, kw]
            dx[:, ci, i, j] += gy[:, oc, oh, ow] * w[ci, co, kh, kw]
            dw[ci, co, kh, kw] += (gy[:, oc, oh, ow] * x[:, ci, i, j]).sum()
    if b is not None:
        y += b.reshape(1, -1, 1, 1)
    return y, dx, dw, gy.astype(np.float64).sum((0, 2, 3))


def ref_windows(I, O, k, s, p, d, ceil_mode, adaptive):
    """Per output: the list of input positions of its window, in scan order."""
    if adaptive:
        return [list(range(o * I // O, -(-(o + 1) * I // O))) for o in range(O)]
    return [[o * s - p + t * d for t in range(k) if 0 <= o * s - p + t * d < I] for o in range(O)]


def pool_out(I, k, s, p, d, ceil_mode):
    o = (I + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)) // s + 1
    return o - 1 if ceil_mode and (o - 1) * s >= I + p else o


def ref_max_pool(x, gy, rows, cols):
    """(values, indices, dx) with PyTorch's rules: NaN wins (the last one), ties go to the first max."""
    N, C, H, W = x.shape
    y = np.zeros((N, C, len(rows), len(cols)), x.dtype)
    idx = np.zeros(y.shape, np.int64)
    dx = np.zeros(x.shape)
    for n, c, (i, r), (j, cl) in itertools.product(range(N), range(C), enumerate(rows), enumerate(cols)):
        best, at, nan = -math.inf, None, False
        for ih, iw in itertools.product(r, cl):
            v, pos = float(x[n, c, ih, iw]), ih * W + iw
            if at is None:
                at = pos
            if math.isnan(v):
                best, at, nan = v, pos, True
            elif not nan and v > best:
                best, at = v, pos
        y[n, c, i, j], idx[n, c, i, j] = best, at
        if gy is not None:
            dx[n, c, at // W, at % W] += gy[n, c, i, j]
    return y, idx, dx


def ref_avg_pool(x, gy, rows, cols, divisors):
    N, C, H, W = x.shape
    y = np.zeros((N, C, len(rows), len(cols)))
    dx = np.zeros(x.shape)
    for (i, r), (j, cl) in itertools.product(enumerate(rows), enumerate(cols)):
        div = divisors[i][j]
        for ih, iw in itertools.product(r, cl):
            y[:, :, i, j] += x[:, :, ih, iw].astype(np.float64) / div
            if gy is not None:
                dx[:, :, ih, iw] += gy[:, :, i, j] / div
    return y, dx


# ---- convolution ---------------------------------------------------------------------------------------
CONV2D = [  # (x shape, w shape, bias, kwargs)
    ((2, 3, 6, 7), (4, 3, 3, 3), True, {}),
    ((2, 3, 7, 7), (4, 3, 3, 3), False, {"stride": 2, "padding": 1}),
    ((1, 4, 7, 6), (6, 2, 3, 2), True, {"stride": (2, 1), "padding": (1, 2), "dilation": (2, 1), "groups": 2}),
    ((2, 4, 6, 6), (4, 1, 3, 3), True, {"padding": 1, "groups": 4}),           # depthwise
    ((2, 2, 6, 5), (6, 1, 3, 3), True, {"groups": 2, "stride": 3}),            # depthwise multiplier 3, stride 3
    ((1, 3, 6, 7), (2, 3, 4, 3), True, {"padding": "same", "dilation": (1, 2)}),  # asymmetric 'same'
    ((2, 3, 5, 5), (2, 3, 1, 1), True, {"stride": 2}),                         # 1x1 stride 2
    ((3, 5, 5), (2, 3, 3, 3), True, {"padding": "valid"}),                     # unbatched
    ((1, 2, 3, 3), (3, 2, 3, 3), True, {"padding": 3}),                        # padding > kernel
    ((1, 2, 5, 5), (2, 2, 5, 5), True, {"dilation": 1}),                       # kernel == input
]


def _pads(kw, xs, ws):
    p = kw.get("padding", 0)
    d = kw.get("dilation", 1)
    d = (d, d) if isinstance(d, int) else d
    if p == "same":
        return [(t // 2, t - t // 2) for t in (d[i] * (ws[2 + i] - 1) for i in range(2))]
    if p == "valid":
        return [(0, 0), (0, 0)]
    p = (p, p) if isinstance(p, int) else p
    return [(v, v) for v in p]


def _pair(v):
    return (v, v) if isinstance(v, int) else tuple(v)


@check
def conv2d_matches_loops(dev):
    for xs, ws, has_b, kw in CONV2D:
        x, w = rnd(*xs), rnd(*ws, seed=1)
        b = rnd(ws[0], seed=2) if has_b else None
        x4 = x if len(xs) == 4 else x[None]
        y, dx, dw, db = None, None, None, None
        tx, tw = T(x, dev, True), T(w, dev, True)
        tb = T(b, dev, True) if has_b else None
        out = F.conv2d(tx, tw, tb, **kw)
        gy = rnd(*out.shape, seed=3)
        gy4 = gy if len(xs) == 4 else gy[None]
        y, dx, dw, db = ref_conv2d(x4, w, b, gy4, _pair(kw.get("stride", 1)), _pads(kw, xs, ws),
                                   _pair(kw.get("dilation", 1)), kw.get("groups", 1))
        K = ws[1] * ws[2] * ws[3]
        what = f"conv2d {xs} {ws} {kw}"
        same(out, y if len(xs) == 4 else y[0], K, what)
        out.backward(T(gy, dev))
        same(tx.grad, dx if len(xs) == 4 else dx[0], K * 4, what + " dx")
        same(tw.grad, dw, gy.size, what + " dw")
        if has_b:
            same(tb.grad, db, gy.size, what + " db")


@check
def conv1d_matches_loops(dev):
    for xs, ws, kw in [((2, 3, 9), (4, 3, 3), {"stride": 2, "padding": 1}),
                       ((1, 4, 12), (4, 2, 4), {"groups": 2, "padding": "same", "dilation": 3}),
                       ((3, 7), (2, 3, 2), {})]:
        x, w, b = rnd(*xs), rnd(*ws, seed=1), rnd(ws[0], seed=2)
        tx, tw, tb = T(x, dev, True), T(w, dev, True), T(b, dev, True)
        out = F.conv1d(tx, tw, tb, **kw)
        gy = rnd(*out.shape, seed=3)
        x4 = (x if len(xs) == 3 else x[None])[:, :, None]
        gy4 = (gy if len(xs) == 3 else gy[None])[:, :, None]
        p = kw.get("padding", 0)
        d = kw.get("dilation", 1)
        pads = [(0, 0), _pads({"padding": p, "dilation": (1, d)}, None, (0, 0, 1, ws[2]))[1]]
        y, dx, dw, db = ref_conv2d(x4, w[:, :, None], b, gy4, (1, kw.get("stride", 1)), pads, (1, d),
                                   kw.get("groups", 1))
        sq = (lambda a: a[:, :, 0]) if len(xs) == 3 else (lambda a: a[0, :, 0])
        same(out, sq(y), ws[1] * ws[2], f"conv1d {xs} {kw}")
        out.backward(T(gy, dev))
        same(tx.grad, sq(dx), 8 * ws[1] * ws[2], f"conv1d dx {xs}")
        same(tw.grad, dw[:, :, 0], gy.size, f"conv1d dw {xs}")
        same(tb.grad, db, gy.size, f"conv1d db {xs}")


@check
def conv_transpose2d_matches_loops(dev):
    for xs, ws, kw in [((2, 3, 4, 5), (3, 2, 3, 3), {"stride": 2, "padding": 1, "output_padding": 1}),
                       ((1, 4, 3, 4), (4, 3, 3, 2), {"stride": (2, 3), "padding": (1, 0), "output_padding": (0, 2),
                                                     "groups": 2, "dilation": (1, 3)}),
                       ((2, 2, 3, 3), (2, 2, 2, 2), {"stride": 2}),
                       ((4, 3, 3), (4, 1, 3, 3), {"groups": 2, "dilation": 2, "output_padding": 1}),
                       ((1, 2, 3, 3), (2, 2, 3, 3), {"padding": 2})]:
        x, w = rnd(*xs), rnd(*ws, seed=1)
        b = rnd(ws[1] * kw.get("groups", 1), seed=2)
        tx, tw, tb = T(x, dev, True), T(w, dev, True), T(b, dev, True)
        out = F.conv_transpose2d(tx, tw, tb, **kw)
        gy = rnd(*out.shape, seed=3)
        x4, gy4 = (x, gy) if len(xs) == 4 else (x[None], gy[None])
        y, dx, dw, db = ref_conv_transpose2d(x4, w, b, gy4, _pair(kw.get("stride", 1)), _pair(kw.get("padding", 0)),
                                             _pair(kw.get("output_padding", 0)), kw.get("groups", 1),
                                             _pair(kw.get("dilation", 1)))
        un = (lambda a: a) if len(xs) == 4 else (lambda a: a[0])
        what = f"conv_transpose2d {xs} {ws} {kw}"
        same(out, un(y), ws[0] * 9, what)
        out.backward(T(gy, dev))
        same(tx.grad, un(dx), ws[1] * 9, what + " dx")
        same(tw.grad, dw, gy.size, what + " dw")
        same(tb.grad, db, gy.size, what + " db")


@check
def conv_views_and_double_backward(dev):
    # transposed input, a sliced weight, an expanded bias: read in place through their strides
    x, w, b = rnd(2, 3, 7, 6), rnd(8, 3, 3, 3, seed=1), rnd(1, seed=2)
    y = F.conv2d(T(x.transpose(0, 1, 3, 2).copy(), dev).transpose(2, 3), T(w, dev)[::2], T(b, dev).expand(4),
                 padding=1, stride=(1, 2))
    want = ref_conv2d(x, w[::2], np.repeat(b, 4), np.zeros((2, 4, 7, 3)), (1, 2), [(1, 1), (1, 1)], (1, 1), 1)[0]
    same(y, want, 27, "conv2d of views")
    # second derivative: d/dw <dL/dx, v> with L = <conv(x, w), g> equals d/dw <conv(v, w), g> (conv is bilinear)
    x, w, v = T(rnd(2, 4, 6, 6), dev, True), T(rnd(6, 2, 3, 3, seed=1), dev, True), T(rnd(2, 4, 6, 6, seed=4), dev)
    g = T(rnd(2, 6, 3, 3, seed=5), dev)
    y = F.conv2d(x, w, stride=2, padding=1, groups=2)
    (gx,) = torch.autograd.grad(y, x, g, create_graph=True)
    (ggw,) = torch.autograd.grad(gx, w, v)
    (want,) = torch.autograd.grad(F.conv2d(v, w, stride=2, padding=1, groups=2), w, g)
    same(ggw, want.detach().numpy().astype(np.float64), 100, "double backward through the input gradient")
    # through the weight and (fused) bias gradients: d/dg (<dL/dw, vw> + <dL/db, vb>) = conv(x, vw) + vb
    b, g = T(rnd(6, seed=6), dev, True), T(rnd(2, 6, 3, 3, seed=5), dev, True)
    vw, vb = T(rnd(6, 2, 3, 3, seed=7), dev), T(rnd(6, seed=8), dev)
    gw, gb = torch.autograd.grad(F.conv2d(x, w, b, stride=2, padding=1, groups=2), (w, b), g, create_graph=True)
    (gg,) = torch.autograd.grad((gw * vw).sum() + (gb * vb).sum(), g)
    want = F.conv2d(x.detach(), vw, vb, stride=2, padding=1, groups=2).numpy().astype(np.float64)
    same(gg, want, 100, "double backward through the weight and bias gradients")


@check
def conv_empty_and_zero_channel_inputs(dev):
    y = F.conv2d(T(rnd(0, 3, 5, 5), dev), T(rnd(4, 3, 3, 3), dev), T(rnd(4), dev))
    assert tuple(y.shape) == (0, 4, 3, 3)
    b = rnd(4)
    y = F.conv2d(T(np.zeros((1, 0, 5, 5), np.float32), dev), T(np.zeros((4, 0, 3, 3), np.float32), dev), T(b, dev))
    same(y, np.broadcast_to(b.reshape(1, 4, 1, 1), (1, 4, 3, 3)).astype(np.float64), exact=True, what="no channels")


# ---- pooling -------------------------------------------------------------------------------------------
def _max_case(dev, x, k, s, p, d, ceil_mode, what):
    N, C, H, W = x.shape
    rows = ref_windows(H, pool_out(H, k[0], s[0], p[0], d[0], ceil_mode), k[0], s[0], p[0], d[0], ceil_mode, False)
    cols = ref_windows(W, pool_out(W, k[1], s[1], p[1], d[1], ceil_mode), k[1], s[1], p[1], d[1], ceil_mode, False)
    tx = T(x, dev, True)
    y, idx = F.max_pool2d(tx, k, s, p, d, ceil_mode=ceil_mode, return_indices=True)
    gy = rnd(*y.shape, seed=3)
    wy, widx, wdx = ref_max_pool(x, gy, rows, cols)
    same(y, wy, exact=True, what=what)
    same(idx, widx, what=what + " indices")
    y.backward(T(gy, dev))
    same(tx.grad, wdx, 4, what + " grad")


@check
def max_pool_matches_loops(dev):
    for xs, k, s, p, d, cm in [((2, 3, 7, 9), (2, 2), (2, 2), (0, 0), (1, 1), False),
                               ((2, 2, 7, 9), (3, 3), (2, 2), (1, 1), (1, 1), True),
                               ((1, 2, 9, 7), (3, 2), (2, 1), (1, 0), (2, 3), False),
                               ((1, 2, 11, 12), (3, 3), (2, 2), (1, 1), (2, 2), True),
                               ((1, 1, 5, 5), (5, 5), (5, 5), (0, 0), (1, 1), False)]:
        _max_case(dev, rnd(*xs), k, s, p, d, cm, f"max_pool2d {xs} k{k} s{s} p{p} d{d} ceil={cm}")
    # NaN (the last one of a window wins), ties (the first wins), all -inf windows (their first element)
    x = np.array([[[[1, np.nan, 3, np.nan, 0], [np.nan, 2, 5, 5, 0], [-np.inf] * 5, [-np.inf] * 5, [2, 2, 2, 2, 2]]]],
                 np.float32)
    for k, s, p in [((2, 2), (1, 1), (0, 0)), ((3, 3), (2, 2), (1, 1)), ((2, 2), (2, 2), (1, 1))]:
        _max_case(dev, x, k, s, p, (1, 1), False, f"max_pool2d NaN/ties/-inf k{k} s{s} p{p}")
    # integers keep their dtype; 1-D pooling indexes the length
    xi = np.random.default_rng(1).integers(-3, 3, (2, 2, 5, 6)).astype(np.int64)
    rows, cols = ref_windows(5, 5, 3, 1, 1, 1, False, False), ref_windows(6, 6, 3, 1, 1, 1, False, False)
    y, idx = F.max_pool2d(T(xi, dev), 3, 1, 1, return_indices=True)
    wy, widx, _ = ref_max_pool(xi.astype(np.float64), None, rows, cols)
    assert y.dtype == torch.int64 and idx.dtype == torch.int64
    same(y, wy.astype(np.int64), what="int64 max_pool2d")
    same(idx, widx, what="int64 max_pool2d indices")
    x1 = rnd(2, 3, 11)
    y, idx = F.max_pool1d(T(x1, dev), 3, 2, 1, return_indices=True)
    wy, widx, _ = ref_max_pool(x1[:, :, None], None, [[0]], ref_windows(11, 6, 3, 2, 1, 1, False, False))
    same(y, wy[:, :, 0], exact=True, what="max_pool1d")
    same(idx, widx[:, :, 0], what="max_pool1d indices")


def _avg_divisors(H, W, rows_full, cols_full, k, s, p, cip, div):
    out = []
    for o, r in enumerate(rows_full):
        line = []
        for q, c in enumerate(cols_full):
            if div:
                line.append(div)
            elif cip:
                hs, ws_ = o * s[0] - p[0], q * s[1] - p[1]
                line.append((min(hs + k[0], H + p[0]) - hs) * (min(ws_ + k[1], W + p[1]) - ws_))
            else:
                line.append(len(r) * len(c))
        out.append(line)
    return out


@check
def avg_pool_matches_loops(dev):
    for xs, k, s, p, cm, cip, div in [((2, 3, 7, 9), (2, 2), (2, 2), (0, 0), False, True, None),
                                      ((2, 2, 7, 9), (3, 3), (2, 2), (1, 1), True, True, None),
                                      ((2, 2, 7, 9), (3, 3), (2, 2), (1, 1), True, False, None),
                                      ((1, 2, 6, 6), (4, 4), (3, 3), (2, 2), True, False, None),
                                      ((1, 2, 7, 8), (3, 2), (2, 3), (1, 1), True, True, 5)]:
        x = rnd(*xs)
        H, W = xs[2:]
        rows = ref_windows(H, pool_out(H, k[0], s[0], p[0], 1, cm), k[0], s[0], p[0], 1, cm, False)
        cols = ref_windows(W, pool_out(W, k[1], s[1], p[1], 1, cm), k[1], s[1], p[1], 1, cm, False)
        divs = _avg_divisors(H, W, rows, cols, k, s, p, cip, div)
        tx = T(x, dev, True)
        y = F.avg_pool2d(tx, k, s, p, ceil_mode=cm, count_include_pad=cip, divisor_override=div)
        gy = rnd(*y.shape, seed=3)
        wy, wdx = ref_avg_pool(x, gy, rows, cols, divs)
        what = f"avg_pool2d {xs} k{k} s{s} p{p} ceil={cm} include_pad={cip} divisor={div}"
        same(y, wy, 9, what)
        y.backward(T(gy, dev))
        same(tx.grad, wdx, 9, what + " grad")
    x1 = rnd(2, 3, 11)
    y = F.avg_pool1d(T(x1, dev), 3, 2, 1, ceil_mode=True, count_include_pad=False)
    cols = ref_windows(11, pool_out(11, 3, 2, 1, 1, True), 3, 2, 1, 1, True, False)
    same(y, ref_avg_pool(x1[:, :, None], None, [[0]], cols, [[len(c) for c in cols]])[0][:, :, 0], 3, "avg_pool1d")
    xi = np.array([[[[-3, -2, 5], [7, -9, 1], [2, 2, 2]]]], np.int64)  # int64: C's truncating division
    same(F.avg_pool2d(T(xi, dev), 2, 1), np.array([[[[-1, -1], [0, -1]]]]), what="int64 avg_pool2d")


@check
def adaptive_pools_match_loops(dev):
    for xs, out in [((2, 3, 7, 9), (3, 4)), ((1, 2, 5, 5), (7, 8)), ((2, 2, 6, 6), (1, 1)), ((3, 7, 5), (2, 5))]:
        x = rnd(*xs)
        x4 = x if len(xs) == 4 else x[None]
        rows = ref_windows(xs[-2], out[0], 0, 0, 0, 0, False, True)
        cols = ref_windows(xs[-1], out[1], 0, 0, 0, 0, False, True)
        un = (lambda a: a) if len(xs) == 4 else (lambda a: a[0])
        tx = T(x, dev, True)
        y = F.adaptive_avg_pool2d(tx, out)
        gy = rnd(*y.shape, seed=3)
        wy, wdx = ref_avg_pool(x4, gy if len(xs) == 4 else gy[None], rows, cols,
                               [[len(r) * len(c) for c in cols] for r in rows])
        same(y, un(wy), 9, f"adaptive_avg_pool2d {xs} -> {out}")
        y.backward(T(gy, dev))
        same(tx.grad, un(wdx), 9, f"adaptive_avg_pool2d grad {xs} -> {out}")
        tx = T(x, dev, True)
        y, idx = F.adaptive_max_pool2d(tx, out, return_indices=True)
        wy, widx, wdx = ref_max_pool(x4, gy if len(xs) == 4 else gy[None], rows, cols)
        same(y, un(wy), exact=True, what=f"adaptive_max_pool2d {xs} -> {out}")
        same(idx, un(widx), what=f"adaptive_max_pool2d indices {xs} -> {out}")
        y.backward(T(gy, dev))
        same(tx.grad, un(wdx), 9, f"adaptive_max_pool2d grad {xs} -> {out}")
    x = rnd(2, 3, 7, 5)
    same(F.adaptive_avg_pool2d(T(x, dev), (None, 2)), F.adaptive_avg_pool2d(T(x, dev), (7, 2)).numpy(), exact=True,
         what="None keeps the input size")
    x1 = rnd(2, 3, 11)
    cols = ref_windows(11, 4, 0, 0, 0, 0, False, True)
    same(F.adaptive_avg_pool1d(T(x1, dev), 4),
         ref_avg_pool(x1[:, :, None], None, [[0]], cols, [[len(c) for c in cols]])[0][:, :, 0], 3,
         "adaptive_avg_pool1d")


# ---- resampling ----------------------------------------------------------------------------------------
def ref_linear_1d(x, out, align_corners, scale_factor):
    """Resample the last dim of x (float64) PyTorch's way: float32 scale and source positions."""
    n = x.shape[-1]
    if n == out:
        return x.copy()
    if align_corners:
        s = np.float32(n - 1) / np.float32(out - 1) if out > 1 else np.float32(0)
    else:
        s = np.float32(1.0 / scale_factor) if scale_factor else np.float32(n) / np.float32(out)
    y = np.zeros(x.shape[:-1] + (out,))
    for d in range(out):
        r = s * np.float32(d) if align_corners else max(s * (np.float32(d) + np.float32(0.5)) - np.float32(0.5), 0)
        i0 = min(int(math.floor(r)), n - 1)
        l1 = min(max(float(np.float32(r) - np.float32(i0)), 0.0), 1.0)
        i1 = min(i0 + 1, n - 1)
        y[..., d] = (1 - np.float32(l1)) * x[..., i0] + np.float32(l1) * x[..., i1]
    return y


def ref_nearest_1d(x, out, scale_factor):
    n = x.shape[-1]
    s = np.float32(1.0 / scale_factor) if scale_factor else np.float32(n) / np.float32(out)
    src = [d if out == n else (d >> 1 if out == 2 * n else min(int(math.floor(np.float32(d) * s)), n - 1))
           for d in range(out)]
    return x[..., src]


@check
def interpolate_matches_loops(dev):
    x = rnd(2, 3, 5, 7).astype(np.float64)
    for kw in [{"scale_factor": 2}, {"size": (3, 11)}, {"scale_factor": 1.7}, {"scale_factor": 3}]:
        sf = kw.get("scale_factor")
        size = kw.get("size") or (math.floor(5 * sf), math.floor(7 * sf))
        want = ref_nearest_1d(np.swapaxes(ref_nearest_1d(x, size[1], sf), 2, 3), size[0], sf)
        same(F.interpolate(T(x.astype(np.float32), dev), **kw), np.swapaxes(want, 2, 3), exact=True,
             what=f"nearest {kw}")
    for ac in (False, True):
        for kw in [{"scale_factor": 2}, {"size": (4, 13)}, {"size": (1, 13)}, {"scale_factor": (1.7, 0.6)}]:
            sf = kw.get("scale_factor")
            sf = (sf, sf) if isinstance(sf, (int, float)) else sf
            size = kw.get("size") or (math.floor(5 * sf[0]), math.floor(7 * sf[1]))
            want = ref_linear_1d(x, size[1], ac, sf[1] if sf else None)
            want = np.swapaxes(ref_linear_1d(np.swapaxes(want, 2, 3), size[0], ac, sf[0] if sf else None), 2, 3)
            tx = T(x.astype(np.float32), dev, True)
            y = F.interpolate(tx, mode="bilinear", align_corners=ac, **kw)
            same(y, want, 4, f"bilinear align_corners={ac} {kw}")
            # the gradient is the adjoint: <interp(x), g> = <x, interp^T(g)>, so check it on basis inputs
            gy = rnd(*y.shape, seed=3)
            y.backward(T(gy, dev))
            basis = np.eye(35).reshape(35, 5, 7)
            up = np.stack([np.swapaxes(ref_linear_1d(np.swapaxes(ref_linear_1d(e, size[1], ac, sf[1] if sf else None),
                                                                  0, 1), size[0], ac, sf[0] if sf else None), 0, 1)
                           for e in basis])                                      # (35, OH, OW)
            wgrad = np.einsum("ncij,kij->nck", gy.astype(np.float64), up).reshape(2, 3, 5, 7)
            same(tx.grad, wgrad, 16, f"bilinear grad align_corners={ac} {kw}")
    x1 = rnd(2, 3, 5).astype(np.float64)
    for ac in (False, True):
        same(F.interpolate(T(x1.astype(np.float32), dev), size=9, mode="linear", align_corners=ac),
             ref_linear_1d(x1, 9, ac, None), 4, f"linear align_corners={ac}")
    same(F.interpolate(T(x1.astype(np.float32), dev), scale_factor=1.7, mode="linear"),
         ref_linear_1d(x1, 8, False, 1.7), 4, "linear scale 1.7")
    y = F.interpolate(T(x1.astype(np.float32), dev), size=5, mode="linear")
    same(y, x1, exact=True, what="same size copies")


@check
def pixel_shuffle_matches_loops(dev):
    x = rnd(2, 8, 3, 5)
    want = np.zeros((2, 2, 6, 10), np.float32)
    for n, c, h, w, i, j in itertools.product(range(2), range(2), range(3), range(5), range(2), range(2)):
        want[n, c, h * 2 + i, w * 2 + j] = x[n, c * 4 + i * 2 + j, h, w]
    tx = T(x, dev, True)
    y = F.pixel_shuffle(tx, 2)
    same(y, want, exact=True, what="pixel_shuffle")
    same(F.pixel_unshuffle(T(want, dev), 2), x, exact=True, what="pixel_unshuffle")
    y.backward(T(want, dev))
    same(tx.grad, x, exact=True, what="pixel_shuffle grad")


# ---- errors ---------------------------------------------------------------------------------------------------
@check
def errors_like_pytorch(dev):
    x, w = T(rnd(2, 4, 8, 8), dev), T(rnd(8, 3, 3, 3), dev)
    cases = [
        (lambda: F.conv2d(x, w), RuntimeError,
         "Given groups=1, weight of size [8, 3, 3, 3], expected input[2, 4, 8, 8] to have 3 channels, but got 4 "
         "channels instead"),
        (lambda: F.conv2d(T(rnd(8, 8), dev), w), RuntimeError,
         "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: [8, 8]"),
        (lambda: F.conv2d(T(rnd(1, 3, 2, 2), dev), w), RuntimeError,
         "Calculated padded input size per channel: (2 x 2). Kernel size: (3 x 3). Kernel size can't be greater than "
         "actual input size"),
        (lambda: F.conv2d(T(rnd(1, 3, 8, 8), dev), w, stride=2, padding="same"), RuntimeError,
         "padding='same' is not supported for strided convolutions"),
        (lambda: F.conv2d(T(rnd(1, 4, 8, 8), dev), T(rnd(6, 2, 3, 3), dev), groups=4), RuntimeError,
         "expected weight to be divisible by 4 at dimension 0"),
        (lambda: F.conv2d(T(rnd(1, 3, 8, 8), dev), w, T(rnd(5), dev)), RuntimeError,
         "expected bias to be 1-dimensional with 8 elements, but got bias of size [5] instead"),
        (lambda: F.conv2d(T(rnd(1, 3, 8, 8), dev), w, stride=(1, 2, 3)), RuntimeError,
         "expected stride to be a single integer value or a list of 2 values"),
        (lambda: F.conv2d(T(rnd(1, 3, 8, 8), dev), w, padding=-1), RuntimeError, "negative padding is not supported"),
        (lambda: F.conv1d(T(rnd(2, 3, 8, 8), dev), T(rnd(4, 3, 3), dev)), RuntimeError,
         "Expected 2D (unbatched) or 3D (batched) input to conv1d, but got input of size: [2, 3, 8, 8]"),
        (lambda: F.conv_transpose2d(T(rnd(1, 3, 4, 4), dev), T(rnd(3, 2, 3, 3), dev), stride=2, output_padding=2),
         RuntimeError, "output padding must be smaller than either stride or dilation"),
        (lambda: F.conv_transpose2d(T(rnd(1, 3, 2, 2), dev), T(rnd(3, 4, 3, 3), dev), padding=3), RuntimeError,
         "Calculated output size per channel: (-2 x -2). Output size is too small"),
        (lambda: F.max_pool2d(T(rnd(16, 16), dev), 2), RuntimeError,
         "non-empty 3D or 4D (batch mode) tensor expected for input"),
        (lambda: F.max_pool2d(x, 2, padding=2), RuntimeError, "pad should be at most half of effective kernel size"),
        (lambda: F.max_pool2d(T(rnd(1, 1, 2, 2), dev), 3), RuntimeError,
         "Given input size: (1x2x2). Calculated output size: (1x0x0). Output size is too small"),
        (lambda: F.max_pool2d(x, 0), RuntimeError, "stride should not be zero"),
        (lambda: F.avg_pool2d(x, 2, divisor_override=0), RuntimeError, "divisor must be not zero"),
        (lambda: F.avg_pool2d(T(rnd(2, 2, 4, 4), dev).int(), 2), NotImplementedError,
         "\"avg_pool2d\" not implemented for 'Int'"),
        (lambda: F.adaptive_avg_pool2d(T(rnd(16, 16), dev), 2), RuntimeError,
         "adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got [16, 16]"),
        (lambda: F.adaptive_avg_pool2d(T(rnd(16, 16), dev), (2, 2)), ValueError,
         "Input dimension should be at least 3"),
        (lambda: F.interpolate(x, size=3, scale_factor=2), ValueError, "only one of size or scale_factor"),
        (lambda: F.interpolate(x, size=3, align_corners=True), ValueError, "align_corners option can only be set"),
        (lambda: F.interpolate(x, size=3, mode="linear"), NotImplementedError, "Got 4D input, but linear mode"),
        (lambda: F.interpolate(x, size=0), RuntimeError,
         "Input and output sizes should be greater than 0, but got input (H: 8, W: 8) output (H: 0, W: 0)"),
        (lambda: F.pixel_shuffle(T(rnd(1, 5, 3, 3), dev), 2), RuntimeError,
         "input.size(-3)=5 is not divisible by 4"),
        (lambda: F.pixel_unshuffle(T(rnd(1, 2, 5, 6), dev), 2), RuntimeError,
         "input.size(-2)=5 is not divisible by 2"),
    ]
    for fn, exc, text in cases:
        try:
            fn()
        except exc as e:
            assert text in str(e), f"{text!r} not in {str(e)!r}"
        else:
            raise AssertionError(f"did not raise {exc.__name__}: {text}")


# ---- WebGPU against the cpu device: every tile shape, larger and non-contiguous inputs -------------------------
CONV_SHAPES = [  # (x shape, w shape, kwargs): channels 1..70, odd sizes, strides 1-3, groups, 1x1, 5x5
    ((8, 32, 16, 16), (32, 32, 3, 3), {"padding": 1}),
    ((8, 32, 16, 16), (64, 32, 3, 3), {"padding": 1, "stride": 2}),
    ((8, 32, 16, 16), (64, 32, 1, 1), {"stride": 2}),
    ((3, 3, 17, 15), (8, 3, 3, 3), {"padding": 1}),
    ((2, 70, 9, 11), (66, 70, 3, 3), {"padding": 2, "dilation": 2}),
    ((2, 12, 13, 10), (9, 4, 5, 5), {"stride": 3, "padding": 2, "groups": 3}),
    ((1, 24, 7, 7), (24, 1, 3, 3), {"padding": 1, "groups": 24}),
    ((5, 1, 6, 6), (1, 1, 1, 1), {}),
    ((1, 130, 5, 5), (130, 130, 1, 1), {}),
]


def _conv_both(xs, ws, kw, transposed=False):
    """forward and gradients of one conv on webgpu and cpu: [(name, webgpu array, cpu array, K)]."""
    x, w = rnd(*xs), rnd(*ws, seed=1)
    nb = ws[1] * kw.get("groups", 1) if transposed else ws[0]
    b = rnd(nb, seed=2)
    fn = F.conv_transpose2d if transposed else F.conv2d
    res = {}
    for dev in ("webgpu", "cpu"):
        tx, tw, tb = T(x, dev, True), T(w, dev, True), T(b, dev, True)
        y = fn(tx, tw, tb, **kw)
        y.backward(T(rnd(*y.shape, seed=3), dev))
        res[dev] = [y.detach().numpy(), tx.grad.numpy(), tw.grad.numpy(), tb.grad.numpy()]
    K = max(ws[1] * ws[2] * ws[3], ws[0] * ws[2] * ws[3], res["cpu"][0][0].size)
    return [(name, a, c, K) for name, a, c in zip(("y", "dx", "dw", "db"), res["webgpu"], res["cpu"])]


@check
def webgpu_conv_every_tile_shape(dev):
    if dev != "webgpu":
        return
    from borch_webgpu.device import gpu_conv
    saved = (gpu_conv._software, gpu_conv._tile)
    tiles = [(t, True) for t in gpu_conv.SOFTWARE_TILES]
    tiles += [(t, False) for t in gpu_conv.GPU_TILES + gpu_conv.GPU_BIG]
    try:
        for tile, software in tiles:
            gpu_conv._software = software               # GPU tiles prefetch into registers, software ones do not
            gpu_conv._tile = lambda M, N, G, _t=tile: _t
            for xs, ws, kw in CONV_SHAPES[3:7]:
                for name, a, c, K in _conv_both(xs, ws, kw):
                    same(a, c.astype(np.float64), K, f"tile {tile} conv2d {xs} {ws} {kw} {name}")
    finally:
        gpu_conv._software, gpu_conv._tile = saved


@check
def webgpu_conv_split_k(dev):
    """The forward and stride-1 input gradient split along K (GPUs, when the output tiles are few), with
    the chunk shortened so that these small shapes split too, through the GPU tile shapes."""
    if dev != "webgpu":
        return
    from borch_webgpu.device import gpu_conv
    saved = (gpu_conv._software, gpu_conv._tile, gpu_conv.SPLIT_CHUNK_MIN)
    try:
        gpu_conv._software, gpu_conv.SPLIT_CHUNK_MIN = False, 16
        for tile in gpu_conv.GPU_TILES[:1] + gpu_conv.GPU_BIG[1:]:
            gpu_conv._tile = lambda M, N, G, _t=tile: _t
            for xs, ws, kw in [CONV_SHAPES[0], CONV_SHAPES[4], CONV_SHAPES[8],
                               ((2, 64, 4, 4), (64, 64, 3, 3), {"padding": 1})]:
                M, N, K = ws[0] // kw.get("groups", 1), xs[0] * xs[2] * xs[3], ws[1] * ws[2] * ws[3]
                assert gpu_conv._k_splits(M, N, K, kw.get("groups", 1), "f32")[0] > 1, (tile, xs, ws)
                for name, a, c, K in _conv_both(xs, ws, kw):
                    same(a, c.astype(np.float64), K, f"split-K tile {tile} conv2d {xs} {ws} {kw} {name}")
    finally:
        gpu_conv._software, gpu_conv._tile, gpu_conv.SPLIT_CHUNK_MIN = saved


@check
def webgpu_conv_matches_cpu(dev):
    if dev != "webgpu":
        return
    for xs, ws, kw in CONV_SHAPES:
        for name, a, c, K in _conv_both(xs, ws, kw):
            same(a, c.astype(np.float64), K, f"conv2d {xs} {ws} {kw} {name}")
    for xs, ws, kw in [((4, 32, 8, 8), (32, 16, 4, 4), {"stride": 2, "padding": 1}),
                       ((2, 6, 5, 7), (6, 2, 3, 3), {"stride": 3, "output_padding": 2, "groups": 3, "dilation": 2})]:
        for name, a, c, K in _conv_both(xs, ws, kw, transposed=True):
            same(a, c.astype(np.float64), K, f"conv_transpose2d {xs} {ws} {kw} {name}")
    # non-contiguous operands read in place
    x, w = rnd(4, 16, 12, 10), rnd(16, 16, 3, 3, seed=1)
    outs = []
    for d in ("webgpu", "cpu"):
        tx = T(x.transpose(0, 2, 3, 1).copy(), d).permute(0, 3, 1, 2)   # channels-last memory
        outs.append(F.conv2d(tx[:, :, ::2], T(w, d).transpose(2, 3), padding=1).numpy())
    same(outs[0], outs[1].astype(np.float64), 144, "conv2d of a channels-last, sliced input")


@check
def webgpu_pooling_matches_cpu(dev):
    if dev != "webgpu":
        return
    x = rnd(8, 64, 16, 16)
    cases = [(F.max_pool2d, (3, 2, 1), {}), (F.max_pool2d, (2,), {"ceil_mode": True}),
             (F.avg_pool2d, (3, 2, 1), {"count_include_pad": False}), (F.adaptive_avg_pool2d, ((1, 1),), {}),
             (F.adaptive_avg_pool2d, ((5, 3),), {}), (F.adaptive_max_pool2d, ((5, 3),), {}),
             (F.interpolate, (), {"scale_factor": 2, "mode": "bilinear"}), (F.interpolate, (), {"size": (9, 20)})]
    for fn, args, kw in cases:
        res = []
        for d in ("webgpu", "cpu"):
            tx = T(x.transpose(0, 1, 3, 2).copy(), d, True)
            y = fn(tx.transpose(2, 3), *args, **kw)
            y.backward(T(rnd(*y.shape, seed=3), d))
            res.append((y.detach().numpy(), tx.grad.numpy()))
        for (a, c), name in zip(zip(*res), ("y", "grad")):
            same(a, c.astype(np.float64), 16, f"{fn.__name__} {args} {kw} {name}")


if pytest is not None:
    @pytest.mark.parametrize("fn", CHECKS, ids=[f.__name__ for f in CHECKS])
    def test_cpu(fn):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fn("cpu")


def main() -> int:
    dev = torch.get_default_device().type
    failed = 0
    for fn in CHECKS:
        try:
            fn(dev)
            print(f"ok   {fn.__name__}", flush=True)
        except Exception as e:  # noqa: BLE001 - report every check
            failed += 1
            print(f"FAIL {fn.__name__}: {type(e).__name__}: {e}", flush=True)
    print(f"conv/pool checks on {dev}: {len(CHECKS) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
