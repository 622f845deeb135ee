"""Freeze real PyTorch's answers to return_types_cases.py into return_types.json:
``python tests/golden/generate_return_types.py`` (needs torch==2.13.0, the CPU build). The format and the
helpers are generate_rnn.py's: the reprs, the errors of the constructors and fields, and attributes."""
from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from generate_rnn import write  # noqa: E402


def main() -> None:
    import torch
    import return_types_cases
    write(torch, return_types_cases, HERE / "return_types.json")


if __name__ == "__main__":
    main()
