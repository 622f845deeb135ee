"""Freeze real PyTorch's answers to transformer_cases.py into transformer.json:
``python tests/golden/generate_transformer.py`` (needs torch==2.13.0, the CPU build). The format and the
helpers are generate_rnn.py's: module state_dicts, inputs, outputs and gradients of every NUMERIC case, then
the errors, warnings, reprs, registered names and attributes."""
from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from generate_rnn import write  # noqa: E402


def main() -> None:
    import torch
    import transformer_cases
    write(torch, transformer_cases, HERE / "transformer.json")


if __name__ == "__main__":
    main()
