"""Freeze real PyTorch's answers to nn_names_cases.py into nn_names.json:
``python tests/golden/generate_numpy_kw.py`` (needs torch==2.13.0, the CPU build). The format and the
helpers are generate_rnn.py's."""
from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from generate_rnn import write  # noqa: E402


def main() -> None:
    import torch
    import nn_names_cases
    write(torch, nn_names_cases, HERE / "nn_names.json")


if __name__ == "__main__":
    main()
