"""Checks shared by tests/unit/test_shapes_more.py (cpu) and tests/browser/test_shapes_more_webgpu.py (WebGPU
in Chromium): each ``check(torch, device)`` raises AssertionError on a failure. Torch-free: the expected
statistics are the distributions' own (mean, median, quantiles), with bounds of about 5 standard errors
for the sample sizes used."""
from __future__ import annotations

import math

N = 20000


def _sample(torch, device, fill, *args, seed=0):
    torch.manual_seed(seed)
    return getattr(torch.empty(N, device=device), fill)(*args)


def check_repeatable(torch, device):
    for fill, args in (("exponential_", (2.0,)), ("geometric_", (0.3,)), ("log_normal_", (0.0, 0.5)),
                       ("cauchy_", (1.0, 2.0))):
        a = _sample(torch, device, fill, *args, seed=7)
        b = _sample(torch, device, fill, *args, seed=7)
        c = _sample(torch, device, fill, *args, seed=8)
        assert a.tolist() == b.tolist(), f"{fill}: the same seed gave different draws"
        assert a.tolist() != c.tolist(), f"{fill}: different seeds gave the same draws"
    torch.manual_seed(3)
    p1 = torch.poisson(torch.full((500,), 4.0, device=device)).tolist()
    torch.manual_seed(3)
    p2 = torch.poisson(torch.full((500,), 4.0, device=device)).tolist()
    assert p1 == p2, "poisson: the same seed gave different draws"


def _host(x):
    """The draws as a sorted Python list: the statistics are computed on the host (sorting 20000 values
    on SwiftShader would take most of the test's time; what is checked is the device's fill)."""
    return sorted(x.tolist())


def _mean(v):
    return sum(v) / len(v)


def check_exponential(torch, device):
    x = _sample(torch, device, "exponential_", 2.0)
    assert x.device.type == device
    v = _host(x)
    assert v[0] >= 0
    assert abs(_mean(v) - 0.5) < 5 * 0.5 / math.sqrt(N)
    assert abs(v[N // 2] - math.log(2) / 2) < 0.02


def check_geometric(torch, device):
    v = _host(_sample(torch, device, "geometric_", 0.25))
    assert v[0] >= 1 and all(a == int(a) for a in v)
    sd = math.sqrt(0.75) / 0.25
    assert abs(_mean(v) - 4.0) < 5 * sd / math.sqrt(N)
    assert abs(v.count(1.0) / N - 0.25) < 0.015


def check_log_normal(torch, device):
    v = _host(_sample(torch, device, "log_normal_", 1.0, 0.5))
    assert v[0] > 0
    logs = [math.log(a) for a in v]
    m = _mean(logs)
    assert abs(m - 1.0) < 5 * 0.5 / math.sqrt(N)
    assert abs(math.sqrt(sum((a - m) ** 2 for a in logs) / (N - 1)) - 0.5) < 0.02


def check_cauchy(torch, device):
    v = _host(_sample(torch, device, "cauchy_", 1.0, 2.0))
    assert abs(v[N // 2] - 1.0) < 0.1
    assert abs(v[int(0.75 * N)] - 3.0) < 0.15 and abs(v[int(0.25 * N)] + 1.0) < 0.15


def check_poisson_binomial(torch, device):
    torch.manual_seed(0)
    rates = torch.tensor([0.5, 4.0, 30.0], device=device).repeat(4000)
    x = torch.poisson(rates).reshape(4000, 3)
    assert x.device.type == device and x.dtype is torch.float32
    cols = list(zip(*x.tolist()))
    for col, lam in zip(cols, (0.5, 4.0, 30.0)):
        assert abs(_mean(col) - lam) < 5 * math.sqrt(lam / 4000)
    b = _host(torch.binomial(torch.full((4000,), 10.0, device=device), torch.full((4000,), 0.3, device=device)))
    assert b[0] >= 0 and b[-1] <= 10 and abs(_mean(b) - 3.0) < 5 * math.sqrt(2.1 / 4000)


def check_memory_facts(torch, device):
    x = torch.zeros(4, 3, device=device)
    assert x.get_device() == (-1 if device == "cpu" else 0)
    assert x[1:].data_ptr() - x.data_ptr() == 12 and x.t().data_ptr() == x.data_ptr()
    assert x.clone().data_ptr() != x.data_ptr()
    assert not x.is_shared() and x.share_memory_() is x and x.is_shared()
    assert not x.is_pinned() and x.nbytes == 48 and x.itemsize == 4


def check_resize(torch, device):
    x = torch.arange(6.0, device=device)
    v = x.view(2, 3)
    x.resize_(2, 2)
    assert x.tolist() == [[0.0, 1.0], [2.0, 3.0]] and x.stride() == (2, 1)
    x.fill_(9.0)
    assert v.tolist() == [[9.0, 9.0, 9.0], [9.0, 4.0, 5.0]], "shrinking keeps the storage (views see writes)"
    x.resize_(3, 3)
    assert x.shape == (3, 3) and x.reshape(-1)[:4].tolist() == [9.0] * 4
    w = torch.ones(2, requires_grad=True)
    try:
        w.resize_(3)
    except RuntimeError as e:
        assert "cannot resize variables that require grad" in str(e)
    else:
        raise AssertionError("resize_ of a tensor that requires grad did not raise")


def check_post_accumulate_hook(torch, device):
    w = torch.ones(2, device=device, requires_grad=True)
    seen = []
    h = w.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.tolist()))
    (w * 3).sum().backward()
    (w * 2).sum().backward()
    assert seen == [[3.0, 3.0], [5.0, 5.0]], seen
    h.remove()
    (w * 2).sum().backward()
    assert len(seen) == 2
    try:
        (w * 2).register_post_accumulate_grad_hook(lambda p: None)
    except RuntimeError as e:
        assert "non-leaf" in str(e)
    else:
        raise AssertionError("a hook on a non-leaf tensor did not raise")


def check_views_share_storage(torch, device):
    x = torch.zeros(3, 4, device=device)
    x.unfold(1, 2, 2)[1, 1, 0] = 5.0
    x.tensor_split(2, dim=1)[1][0, 0] = 7.0
    torch.broadcast_to(x[2:], (2, 4))
    x.hsplit([1])[0][2, 0] = 1.0
    assert x.tolist() == [[0.0, 0.0, 7.0, 0.0], [0.0, 0.0, 5.0, 0.0], [1.0, 0.0, 0.0, 0.0]], x.tolist()


CHECKS = {name[len("check_"):]: fn for name, fn in dict(globals()).items() if name.startswith("check_")}
