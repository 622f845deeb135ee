"""Freeze real PyTorch's answers to numpy_kw_cases.py into numpy_kw.json:
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
    import numpy_kw_cases
    write(torch, numpy_kw_cases, HERE / "numpy_kw.json")


if __name__ == "__main__":
    main()
