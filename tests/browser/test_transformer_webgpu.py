"""nn.Transformer, its encoder and decoder stacks, the is_causal hints and F.scaled_dot_product_attention on
WebGPU in Chromium: PyTorch's answers frozen in tests/golden/transformer.json replayed on the device (outputs
and gradients of the ON_WEBGPU cases of transformer_cases.py, every error, warning, repr and registered name);
torch.return_types (tests/golden/return_types.json: reprs, errors, the ops' results on the device); and a
Transformer training step with causal and padding masks captured as a CUDA graph, which holds only if no layer
reads a value back to the host (``tgt_is_causal=True`` is given: with None the decoder reads the mask back to
check that it is causal, as PyTorch does)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def test_transformer_goldens_on_webgpu(replay_on_webgpu):
    sys.path.insert(0, str(GOLDEN))
    try:
        from transformer_cases import ON_WEBGPU
    finally:
        sys.path.remove(str(GOLDEN))
    replay_on_webgpu("replay_transformer.py", "transformer:", ON_WEBGPU)


def test_return_types_on_webgpu(replay_on_webgpu):
    replay_on_webgpu("replay_return_types.py", "return_types:")


CAPTURED_STEP = r"""
import json
import borch_webgpu as torch
from borch_webgpu import nn

def build():
    torch.manual_seed(0)
    model = nn.Transformer(8, 2, 1, 1, 16, dropout=0.0, batch_first=True).cuda()
    head = nn.Linear(8, 1).cuda()
    opt = torch.optim.SGD(list(model.parameters()) + list(head.parameters()), lr=0.1)
    src, tgt = torch.randn(2, 5, 8, device="cuda"), torch.randn(2, 4, 8, device="cuda")
    target = torch.randn(2, 4, 1, device="cuda")
    mask = nn.Transformer.generate_square_subsequent_mask(4, device="cuda")
    pad = torch.tensor([[False] * 5, [False, False, False, True, True]], device="cuda")

    def step():
        out = model(src, tgt, tgt_mask=mask, src_key_padding_mask=pad, memory_key_padding_mask=pad,
                    tgt_is_causal=True)
        loss = ((head(out) - target) ** 2).mean()
        loss.backward()
        opt.step()
        return loss
    return opt, step

opt, step = build()
eager = []
for _ in range(3):
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
for _ in range(2):
    g.replay()
    replayed.append(static_loss.item())
print(json.dumps({"eager": eager, "replayed": replayed, "dispatches": g._graph.n_dispatches}))
"""


def test_transformer_training_step_captures_without_host_reads(browser, summary_line):
    code, out, err = browser.run(CAPTURED_STEP)
    assert code == 0, (out + err)[-4000:]
    r = json.loads(out.strip().splitlines()[-1])
    eager, replayed = r["eager"], r["replayed"]
    summary_line(f"webgpu Transformer training step as one CUDA graph of {r['dispatches']} dispatches")
    # the replays are steps 2 and 3 of the same training run done eagerly
    assert replayed == pytest.approx(eager[1:], rel=1e-5, abs=1e-6), r
    assert eager[0] > eager[-1], r
