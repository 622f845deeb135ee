"""The bitonic sort's shared-memory modes (local, init, merge) at every workgroup size an adapter can get
(device/gpu_scan_sort.py SORT_WG: 256 on GPUs, 4 on software adapters), each forced here whatever the
adapter is: short rows (one dispatch), rows past 2048 (init, global steps, merge), descending, topk, ties
(stable), NaN and -0.0, strided input; against numpy. Prints ``sort workgroups: N passed, N failed``."""
import numpy as np

import borch_webgpu as torch
from borch_webgpu.device import gpu_scan_sort as g

dev = torch.get_default_device()
rng = np.random.default_rng(3)
cases = []


def case(fn):
    cases.append(fn)
    return fn


def stable_argsort(a, axis, descending=False):
    if descending:
        # PyTorch's stable descending sort: larger first, ties in index order, NaN first
        key = np.where(np.isnan(a), np.inf, a)
        order = np.argsort(-key, axis=axis, kind="stable")
        nan_first = np.argsort(~np.isnan(np.take_along_axis(a, order, axis)), axis=axis, kind="stable")
        return np.take_along_axis(order, nan_first, axis)
    return np.argsort(a, axis=axis, kind="stable")


def check(x, d, descending=False):
    v, i = torch.tensor(x, device=dev).sort(d, descending=descending, stable=True)
    want_i = stable_argsort(x, d, descending)
    want_v = np.take_along_axis(x, want_i, d)
    assert np.array_equal(i.numpy(), want_i), "indices"
    assert np.array_equal(v.numpy(), want_v, equal_nan=True), "values"


@case
def short_rows():
    check(rng.standard_normal((37, 300)).astype(np.float32), 1)
    check(rng.standard_normal((5, 7)).astype(np.float32), 0, descending=True)


@case
def long_rows():
    check(rng.standard_normal((3, 5000)).astype(np.float32), 1)
    check(rng.standard_normal(20000).astype(np.float32), 0, descending=True)


@case
def ties_nan_and_signed_zero():
    x = rng.integers(-3, 4, size=(4, 3000)).astype(np.float32)
    x[0, ::7] = np.nan
    x[1, ::5] = -0.0
    check(x, 1)
    check(x, 1, descending=True)
    check(rng.integers(-5, 5, size=(6, 100)).astype(np.int32), 1)


@case
def strided_and_topk():
    x = rng.standard_normal((300, 40)).astype(np.float32)
    v, i = torch.tensor(x, device=dev).t().sort(1)
    assert np.array_equal(i.numpy(), np.argsort(x.T, 1, kind="stable"))
    tv, ti = torch.tensor(x, device=dev).topk(5, dim=0)
    assert np.array_equal(tv.numpy(), -np.sort(-x, 0)[:5])


saved = dict(g.SORT_WG)
passed = failed = 0
try:
    for wg in (256, 4):
        g.SORT_WG["gpu"] = g.SORT_WG["software"] = wg
        for fn in cases:
            try:
                fn()
                passed += 1
                print(f"ok   {fn.__name__} [workgroup {wg}]")
            except Exception as e:  # noqa: BLE001 - report every case
                failed += 1
                print(f"FAIL {fn.__name__} [workgroup {wg}]: {type(e).__name__}: {e}")
finally:
    g.SORT_WG.update(saved)
print(f"sort workgroups: {passed} passed, {failed} failed [device {dev}]")
