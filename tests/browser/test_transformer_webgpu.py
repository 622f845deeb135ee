"""nn.Transformer, its encoder and decoder stacks, the is_causal hints and F.scaled_dot_product_attention on
WebGPU in Chromium: PyTorch's answers frozen in tests/golden/transformer.json replayed on the device (outputs
and gradients of the ON_WEBGPU cases of transformer_cases.py, every error, warning, repr and registered name);
and torch.return_types (tests/golden/return_types.json: reprs, errors, the ops' results on the device)."""
from __future__ import annotations

import sys
from pathlib import Path

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
