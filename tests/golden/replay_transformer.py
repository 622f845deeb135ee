"""Replay transformer.json (PyTorch's answers, tests/golden/generate_transformer.py) on borch_webgpu:
``python replay_transformer.py [--device cpu|webgpu] [numeric case id ...]``, as replay_rnn.py does (PyTorch's
weights loaded with ``load_state_dict(strict=True)``; outputs and gradients of inputs and parameters; then
errors, warnings, reprs, names and attributes). Prints one line per mismatch and ``transformer: N passed, N
failed``."""
from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from replay_rnn import replay  # noqa: E402

# float32 through a few GEMMs, softmaxes and LayerNorms per layer, in another summation order than PyTorch's
# (measured on cpu: the worst case differs by 3e-6, 7x inside these bounds); LayerNorm divides by a standard
# deviation, which turns absolute differences into relative ones
TOL = (1e-5, 2e-5)


def load() -> dict:
    return json.loads((HERE / "transformer.json").read_text())


def main(argv=None) -> int:
    from transformer_cases import NUMERIC
    return replay("transformer", load(), NUMERIC, argv, TOL)


if __name__ == "__main__":
    sys.exit(main())
