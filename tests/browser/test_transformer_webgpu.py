"""nn.Transformer, its encoder and decoder stacks, the is_causal hints and F.scaled_dot_product_attention on
WebGPU in Chromium: PyTorch's answers frozen in tests/golden/transformer.json replayed on the device (outputs
and gradients of the ON_WEBGPU cases of transformer_cases.py, every error, warning, repr and registered name);
torch.return_types (tests/golden/return_types.json: reprs, errors, the ops' results on the device); and a
Transformer training step with causal and padding masks captured as a CUDA graph, which holds only if no layer
reads a value back to the host (``tgt_is_causal=True`` is given: with None the decoder reads the mask back to
check that it is causal, as PyTorch does)."""
from __future__ import annotations

import sys
from pathlib import Path

from _captured_step import check_captured_step

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


def test_numpy_keywords_on_webgpu(replay_on_webgpu):
    """``x.sum(axis=1, keepdims=True)`` and the other numpy spellings PyTorch's bound ops take (numpy_kw.json)."""
    replay_on_webgpu("replay_numpy_kw.py", "numpy_kw:")


def test_deprecated_nn_names_and_skip_init_on_webgpu(replay_on_webgpu):
    """``nn.init.normal`` & co., ``clip_grad_norm``, ``factory_kwargs``, ``skip_init`` (nn_names.json)."""
    replay_on_webgpu("replay_nn_names.py", "nn_names:")


BUILD_STEP = """
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
"""


def test_transformer_training_step_captures_without_host_reads(browser, summary_line):
    check_captured_step(browser, summary_line, BUILD_STEP, "Transformer", steps=3)
