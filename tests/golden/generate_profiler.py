"""Freeze what PyTorch's profiler reports for profiler_cases.PROGRAMS into profiler.json:
``python tests/golden/generate_profiler.py`` (needs torch==2.13.0, the CPU build). Names, call counts,
table headers, schedule actions and traces; never times."""
from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import torch  # noqa: E402

from profiler_cases import PROGRAMS  # noqa: E402

TORCH_VERSION = "2.13.0"


def main() -> None:
    if torch.__version__.split("+")[0] != TORCH_VERSION:
        sys.exit(f"profiler.json comes from torch {TORCH_VERSION}; this is {torch.__version__}")
    torch.set_num_threads(1)
    doc = {"torch": torch.__version__, **{name: fn(torch, "cpu") for name, fn in PROGRAMS.items()}}
    (HERE / "profiler.json").write_text(json.dumps(doc, indent=1) + "\n")
    print(f"{len(PROGRAMS)} programs written to {HERE / 'profiler.json'}")


if __name__ == "__main__":
    main()
