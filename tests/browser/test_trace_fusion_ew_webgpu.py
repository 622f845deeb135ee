"""Elementwise chains over the captured trace on WebGPU in Chromium (SwiftShader here: a CPU, not a
GPU): under ``torch.compile`` an elementwise op whose result only one later elementwise op reads is
folded into that op's kernel (device/trace_fusion_ew.py). Compiled results must be eager's bit for
bit, with the dispatches counted: a chain or tree of ops is one kernel, a result read twice stays a
dispatch of its own, and a training step (written-out SiLU, tanh, GELU, a squared-error loss, Adam)
loses most of its elementwise dispatches and gives eager's losses and parameters exactly. Operands
may be views: a LayerNorm written out (broadcast mean and weights) and ops over transposed heads
fold too, and a transformer layer's step gives eager's losses and parameters exactly."""
from __future__ import annotations

import json

SCRIPT = r"""
import json
import numpy as np
import borch_webgpu as torch
from borch_webgpu import nn
from borch_webgpu.nn import functional as F
from borch_webgpu.device import trace_fusion_ew, trace_fusion_reduce


def count(fn, *a):
    torch.webgpu.synchronize()
    s0 = torch.webgpu.stats()["dispatches"]
    with torch.no_grad():
        y = fn(*a)
        ys = [t.numpy() for t in (y if isinstance(y, tuple) else (y,))]
    return ys, torch.webgpu.stats()["dispatches"] - s0


def chain(x, y):      # a tree of 7 ops over two inputs, scalars in between: one kernel
    return (torch.sigmoid(x) * x + 1.5) * y - x.exp() * 0.5


def params(x, y):     # ops with parameters in the uniform block (leaky_relu's slope, clamp's bounds)
    return F.leaky_relu(x * y, 0.2) * 3.0 + torch.clamp(y, -0.5, 0.5)


def shared(x, y):     # a is read twice: nothing may fold it
    a = x * 2.0
    return a + 1.0, a * y


def ln(x, y):         # LayerNorm written out: the mean, the variance and the weights are broadcast
    m = x.mean(-1, keepdim=True)
    v = ((x - m) ** 2).mean(-1, keepdim=True)
    return (x - m) / torch.sqrt(v + 1e-5) * y[0] + y[1]


def heads(x, y):      # transposed views (attention's head reshapes) read by elementwise ops
    return (x.transpose(1, 2) * 0.5 + y.transpose(1, 2).exp()).sin().flip(0) * y.transpose(1, 2)


torch.manual_seed(0)
x, y = torch.randn(1000, device="webgpu"), torch.randn(1000, device="webgpu")
args = {"ln": (torch.randn(6, 5, 33, device="webgpu"), torch.randn(2, 33, device="webgpu")),
        "heads": (torch.randn(3, 7, 4, 5, device="webgpu"), torch.randn(3, 7, 4, 5, device="webgpu"))}
out = {}
for fn in (chain, params, shared, ln, heads):
    x, y = args.get(fn.__name__, (x, y))
    ref, n_eager = count(fn, x, y)
    res = {}
    for on in (True, False):
        trace_fusion_ew.ENABLED = trace_fusion_reduce.ENABLED = on
        c = torch.compile(fn)
        for _ in range(3):
            got, n = count(c, x, y)
        res[str(on)] = [n, max(float(np.abs(g - r).max()) for g, r in zip(got, ref))]
    trace_fusion_ew.ENABLED = trace_fusion_reduce.ENABLED = True
    out[fn.__name__] = {"eager": n_eager, "fused": res["True"], "unfused": res["False"]}


def sums(x, y):       # producers that only a reduction reads: its prologue (trace_fusion_reduce)
    return (x * y).sum(0), (-(x.exp())).sum(), ((x - y.mean(-1, keepdim=True)) ** 2).mean(-1)


def view_sums(x, y):  # a producer over a transposed view; parameters (clamp's bounds) as constants
    return (x.transpose(0, 1) * 3.0).amax(1), torch.clamp(x, -0.5, 0.5).sum(1)


for fn, x, y in ((sums, torch.randn(300, 70, device="webgpu"), torch.randn(300, 70, device="webgpu")),
                 (view_sums, torch.randn(300, 70, device="webgpu"), torch.randn(300, 70, device="webgpu")),
                 (sums, torch.randn(4, 40000, device="webgpu"), torch.randn(4, 40000, device="webgpu"))):
    ref, n_eager = count(fn, x, y)     # the last: long rows, a split reduction (partial states)
    res = {}
    for on in (True, False):
        trace_fusion_reduce.ENABLED = on
        c = torch.compile(fn)
        for _ in range(3):
            got, n = count(c, x, y)
        res[str(on)] = [n, max(float(np.abs(g - r).max()) for g, r in zip(got, ref))]
    trace_fusion_reduce.ENABLED = True
    out[fn.__name__ + str(x.shape[1])] = {"eager": n_eager, "fused": res["True"], "unfused": res["False"]}


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.a, self.b = nn.Linear(8, 32), nn.Linear(32, 4)

    def forward(self, x):
        h = self.a(x)
        h = h * torch.sigmoid(h)
        h = torch.tanh(h) * 0.5 + F.gelu(h)
        return self.b(h)


torch.manual_seed(0)
xs = [torch.randn(16, 8) for _ in range(5)]
ts = [torch.randn(16, 4) for _ in range(5)]
init = Net().state_dict()


def train(compiled, on=True, reduce_on=True):
    trace_fusion_ew.ENABLED = on
    trace_fusion_reduce.ENABLED = reduce_on
    m = Net().to("webgpu")
    m.load_state_dict(init)
    opt = torch.optim.Adam(m.parameters(), lr=1e-2)

    def step(x, t):
        opt.zero_grad()
        loss = ((m(x) - t) ** 2).mean()
        loss.backward()
        opt.step()
        return loss
    s = torch.compile(step, fullgraph=True) if compiled else step
    losses, n = [], 0
    for i in range(5):
        torch.webgpu.synchronize()
        s0 = torch.webgpu.stats()["dispatches"]
        losses.append(s(xs[i].to("webgpu"), ts[i].to("webgpu")).item())
        n = torch.webgpu.stats()["dispatches"] - s0
    trace_fusion_ew.ENABLED = trace_fusion_reduce.ENABLED = True
    return losses, n, [p.detach().numpy() for p in m.parameters()]


le, ne, pe = train(False)
lc, nc, pc = train(True)
lu, nu, _ = train(True, False, False)
out["train"] = {"eager": ne, "fused": nc, "unfused": nu, "loss_diff": max(abs(a - b) for a, b in zip(le, lc)),
                "param_diff": max(float(np.abs(a - b).max()) for a, b in zip(pe, pc))}
Net = lambda: nn.Sequential(nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True),  # noqa: E731
                            nn.Linear(8, 4))
init = Net().state_dict()
xs = [torch.randn(4, 5, 8) for _ in range(5)]
ts = [torch.randn(4, 5, 4) for _ in range(5)]
le, ne, pe = train(False)
lc, nc, pc = train(True)
lu, nu, _ = train(True, False, False)
_, nr, _ = train(True, True, False)
out["transformer"] = {"eager": ne, "fused": nc, "unfused": nu, "no_prologue": nr,
                      "loss_diff": max(abs(a - b) for a, b in zip(le, lc)),
                      "param_diff": max(float(np.abs(a - b).max()) for a, b in zip(pe, pc))}
print(json.dumps(out))
"""


def test_elementwise_chains_fold_into_one_kernel_bit_for_bit(browser, summary_line):
    code, out, err = browser.run(SCRIPT, timeout_s=600)
    assert code == 0, err[-3000:]
    r = json.loads(out.strip().splitlines()[-1])
    t = r["train"]
    summary_line(f"elementwise chains (trace_fusion_ew): MLP+Adam step {t['unfused']} -> {t['fused']} dispatches; "
                 f"7-op tree {r['chain']['unfused'][0]} -> {r['chain']['fused'][0]}")
    for name in ("chain", "params", "shared", "ln", "heads"):
        assert r[name]["fused"][1] == 0.0 and r[name]["unfused"][1] == 0.0, r
        assert r[name]["unfused"][0] == r[name]["eager"], r
    assert r["chain"]["fused"][0] == 1, r
    assert r["params"]["fused"][0] == 1, r
    assert r["shared"]["fused"][0] == r["shared"]["eager"], r        # nothing folds
    # ln: the mean stays, (x - m) is read twice, so it stays too; its square goes into the variance's
    # mean (a prologue), and the rest (+ eps, sqrt, the division, the weights) is one kernel
    assert (r["ln"]["eager"], r["ln"]["fused"][0]) == (10, 4), r
    # heads: the flip reads sin's result through a view, so that result is stored; flip + mul fold
    assert (r["heads"]["eager"], r["heads"]["fused"][0]) == (6, 2), r
    assert t["loss_diff"] == 0.0 and t["param_diff"] == 0.0, t
    assert t["unfused"] == t["eager"] and t["fused"] <= t["eager"] - 15, t
    # reductions computing their input: (x*y).sum, (-exp x).sum, ((x - mean) ** 2).mean over 10
    # dispatches (8 compiled: the two ops of the last fold into one); each sum takes its producer
    for name, unfused in (("sums70", 8), ("view_sums70", 4), ("sums40000", 10)):
        f = r[name]
        assert f["fused"][1] == 0.0 and f["unfused"][1] == 0.0, r
        assert f["unfused"][0] == unfused and f["fused"][0] == unfused - (3 if name.startswith("sums") else 2), r
    tr = r["transformer"]
    summary_line(f"elementwise chains over views + reduction prologues: transformer layer + Adam step "
                 f"{tr['unfused']} -> {tr['no_prologue']} -> {tr['fused']} dispatches")
    assert tr["loss_diff"] == 0.0 and tr["param_diff"] == 0.0, tr
    assert tr["unfused"] == tr["eager"] and tr["fused"] <= tr["no_prologue"] - 5 <= tr["eager"] - 15, tr
