"""Cross-entropy's fused kernels on WebGPU in Chromium (SwiftShader here: a CPU, not a GPU): the
forward of a classifier's batch is one dispatch (wgsl/loss.wgsl ``one``: the rows and their total in
one workgroup) and the backward one, and their values are the two-kernel path's (``rows`` then
``total``) bit for bit, for every reduction, with ignored targets, rows past 64 classes and row
counts that are not a multiple of four; and real PyTorch 2.13's cross_entropy goldens
(tests/golden/cases_nn.py) replay through the single kernel. An out-of-range target still raises
PyTorch's IndexError from it."""
from __future__ import annotations

import json

SCRIPT = r"""
import json
import numpy as np
import borch_webgpu as torch
from borch_webgpu.nn import functional as F
from borch_webgpu.device import gpu_loss

def run(x, t, reduction, ignore_index=-100):
    xw = x.to("webgpu").detach().clone().requires_grad_()   # a new leaf each time (to() may return x)
    torch.webgpu.synchronize()
    s0 = torch.webgpu.stats()["dispatches"]
    loss = F.cross_entropy(xw, t.to("webgpu"), reduction=reduction, ignore_index=ignore_index)
    torch.webgpu.synchronize()
    s1 = torch.webgpu.stats()["dispatches"]
    loss.sum().backward() if reduction == "none" else loss.backward()
    g = xw.grad.numpy()
    s2 = torch.webgpu.stats()["dispatches"]
    return loss.detach().numpy(), g, s1 - s0, s2 - s1

torch.manual_seed(0)
out = {}
for name, (N, K, ignore) in {"b64c10": (64, 10, -100), "b7c100": (7, 100, 3), "b1c3": (1, 3, -100),
                             "b5c2_all_ignored": (5, 2, 1)}.items():
    x = torch.randn(N, K) * 3
    t = torch.randint(0, K, (N,))
    if name.endswith("all_ignored"):
        t = torch.ones(N, dtype=torch.int64)
    elif ignore >= 0:
        t[::2] = ignore
    for red in ("mean", "sum", "none"):
        y1, g1, f1, b1 = run(x, t, red, ignore)
        keep = gpu_loss.ONE_ROWS
        gpu_loss.ONE_ROWS = 0          # force the two-kernel path
        y2, g2, f2, b2 = run(x, t, red, ignore)
        gpu_loss.ONE_ROWS = keep
        same = bool(np.array_equal(y1, y2, equal_nan=True) and np.array_equal(g1, g2, equal_nan=True))
        out[f"{name}/{red}"] = {"fwd": [f1, f2], "bwd": [b1, b2], "same": same,
                                 "loss": np.asarray(y1, dtype=np.float64).ravel()[:3].tolist()}
try:
    F.cross_entropy(torch.randn(4, 3, device="webgpu"), torch.tensor([0, 1, 5, 2], device="webgpu")).item()
    out["error"] = None
except IndexError as e:
    out["error"] = str(e)
print(json.dumps(out))
"""

# real torch 2.13: F.cross_entropy(torch.randn(4, 3), torch.tensor([0, 1, 5, 2])) raises
TORCH_ERROR = "Target 5 is out of bounds."
BWD = 2


def test_cross_entropy_forward_is_one_dispatch_and_matches_the_two_kernel_path(browser, summary_line):
    code, out, err = browser.run(SCRIPT, timeout_s=300)
    assert code == 0, err[-3000:]
    r = json.loads(out.strip().splitlines()[-1])
    assert r.pop("error").startswith(TORCH_ERROR + " (cross_entropy at ")   # our note: the op and line
    for case, v in r.items():
        assert v["same"], (case, v)
        single, two = v["fwd"]
        if case.endswith("/none"):
            assert single == two == 1, (case, v)       # the rows kernel alone
        else:
            assert (single, two) == (1, 2), (case, v)
        assert v["bwd"][0] == v["bwd"][1], (case, v)
        if not case.endswith("/none"):
            assert v["bwd"][0] <= BWD, (case, v)   # the bwd kernel (and the seed of backward())
    assert all(v != v for v in r["b5c2_all_ignored/mean"]["loss"])   # NaN, as PyTorch's mean over no targets
    summary_line("cross-entropy forward: 2 -> 1 dispatch (one workgroup up to 1024 rows)")


def test_cross_entropy_goldens_through_the_single_kernel(replay_on_webgpu):
    replay_on_webgpu("replay.py", "golden:", ["cross_entropy"])
