"""nn.RNN / LSTM / GRU, the cells and nn.utils.rnn on WebGPU in Chromium: PyTorch's answers frozen in
tests/golden/rnn.json replayed on the device (outputs, h_n / c_n and gradients of the ON_WEBGPU cases of
rnn_cases.py, every error, warning and repr), and an LSTM
training step captured as a CUDA graph, which holds only if the recurrence never reads a value back to
the host."""
from __future__ import annotations

import sys
from pathlib import Path

from _captured_step import check_captured_step

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def test_rnn_goldens_on_webgpu(browser, summary_line):
    sys.path.insert(0, str(GOLDEN))
    try:
        from rnn_cases import ON_WEBGPU
    finally:
        sys.path.remove(str(GOLDEN))
    code, out, err = browser.run_golden("replay_rnn.py", ["--device", "webgpu", *ON_WEBGPU], timeout_s=600)
    last = [line for line in out.splitlines() if line.startswith("rnn:")]
    summary_line("webgpu " + (last[-1] if last else "rnn: no summary"))
    assert code == 0 and last and " 0 failed" in last[-1], (out + err)[-6000:]


BUILD_STEP = """
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
"""


def test_lstm_training_step_captures_without_host_reads(browser, summary_line):
    check_captured_step(browser, summary_line, BUILD_STEP, "LSTM")
