"""Freeze PyTorch's answers to compare_cases.CASES into compare.json:
``python tests/golden/generate_compare.py`` (needs torch==2.13.0, the CPU build)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402
import torch  # noqa: E402

from compare_cases import CASES  # noqa: E402
from compare_io import ENV_CONSTANTS, evaluate  # noqa: E402

TORCH_VERSION = "2.13.0"


def main() -> None:
    if torch.__version__.split("+")[0] != TORCH_VERSION:
        sys.exit(f"compare.json comes from torch {TORCH_VERSION}; this is {torch.__version__}")
    env = {"torch": torch, "dev": "cpu", "np": np, **ENV_CONSTANTS}
    out = []
    ids = set()
    for name, expr, *opt in CASES:
        if name in ids:
            raise SystemExit(f"duplicate case id {name!r}")
        ids.add(name)
        out.append({"id": name, "expr": expr, **(opt[0] if opt else {}), **evaluate(expr, env)})
    doc = {"torch": torch.__version__, "cases": out}
    (HERE / "compare.json").write_text(json.dumps(doc, indent=1) + "\n")
    print(f"{len(out)} cases written to {HERE / 'compare.json'}")


if __name__ == "__main__":
    main()
