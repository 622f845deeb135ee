"""nn.RNN / LSTM / GRU, the cells and nn.utils.rnn on WebGPU in Chromium: PyTorch's answers frozen in
tests/golden/rnn.json replayed on the device (outputs, h_n / c_n and gradients of the ON_WEBGPU cases of
rnn_cases.py, every error, warning and repr), and an LSTM
training step captured as a CUDA graph, which holds only if the recurrence never reads a value back to
the host."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def test_rnn_goldens_on_webgpu(browser, summary_line):
    from borch_webgpu.run import mount_list
    sys.path.insert(0, str(GOLDEN))
    try:
        from rnn_cases import ON_WEBGPU
    finally:
        sys.path.remove(str(GOLDEN))
    cwd = os.getcwd()
    os.chdir(GOLDEN.parents[1])
    try:
        browser.sess.mount(mount_list(["tests/golden"]))
        code, out, err = browser.run_file(GOLDEN / "replay_rnn.py", ["--device", "webgpu", *ON_WEBGPU],
                                          timeout_s=600)
    finally:
        os.chdir(cwd)
    last = [line for line in out.splitlines() if line.startswith("rnn:")]
    summary_line("webgpu " + (last[-1] if last else "rnn: no summary"))
    assert code == 0 and last and " 0 failed" in last[-1], (out + err)[-6000:]


CAPTURED_STEP = r"""
import json
import borch_webgpu as torch
from borch_webgpu import nn

def build():
    torch.manual_seed(0)
    model = nn.LSTM(3, 4, num_layers=2, bidirectional=True).cuda()
    head = nn.Linear(8, 1).cuda()
    opt = torch.optim.SGD(list(model.parameters()) + list(head.parameters()), lr=0.1)
    x = torch.randn(4, 2, 3, device="cuda")
    target = torch.randn(4, 2, 1, device="cuda")

    def step():
        out, (h, c) = model(x)
        loss = ((head(out) - target) ** 2).mean() + 0.1 * c.pow(2).mean()
        loss.backward()
        opt.step()
        return loss
    return opt, step

opt, step = build()
eager = []
for _ in range(4):
    opt.zero_grad(set_to_none=True)
    eager.append(step().item())

opt, step = build()
opt.zero_grad(set_to_none=True)
step()                                             # a warm-up step, as in PyTorch's CUDA graph recipe
opt.zero_grad(set_to_none=True)
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):                          # fullgraph: raises at any read back to the host
    static_loss = step()
replayed = []
for _ in range(3):
    g.replay()
    replayed.append(static_loss.item())
print(json.dumps({"eager": eager, "replayed": replayed, "dispatches": g._graph.n_dispatches}))
"""


def test_lstm_training_step_captures_without_host_reads(browser, summary_line):
    code, out, err = browser.run(CAPTURED_STEP)
    assert code == 0, (out + err)[-4000:]
    r = json.loads(out.strip().splitlines()[-1])
    eager, replayed = r["eager"], r["replayed"]
    summary_line(f"webgpu LSTM training step as one CUDA graph of {r['dispatches']} dispatches")
    # the replays are steps 2..4 of the same training run done eagerly
    assert replayed == pytest.approx(eager[1:], rel=1e-5, abs=1e-6), r
    assert eager[0] > eager[-1], r
