"""Freeze PyTorch's answers to amp_cases.CASES into amp.json:
``python tests/golden/generate_amp.py`` (needs torch==2.13.0, the CPU build)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from generate_dtype64 import main  # noqa: E402

if __name__ == "__main__":
    main("amp_cases", "amp.json")
