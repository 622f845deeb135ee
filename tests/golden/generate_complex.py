"""Freeze PyTorch's answers to complex_cases.CASES into complex.json:
``PYTHONPATH= /tmp/torchenv/bin/python tests/golden/generate_complex.py`` (needs torch==2.13.0, the CPU build)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402
import torch  # noqa: E402

from compare_io import ENV_CONSTANTS  # noqa: E402
from complex_cases import CASES, evaluate, helpers  # noqa: E402

TORCH_VERSION = "2.13.0"


def main() -> None:
    if torch.__version__.split("+")[0] != TORCH_VERSION:
        sys.exit(f"complex.json comes from torch {TORCH_VERSION}; this is {torch.__version__}")
    out, ids = [], set()
    for name, expr, *opt in CASES:
        if name in ids:
            raise SystemExit(f"duplicate case id {name!r}")
        ids.add(name)
        env = {"torch": torch, "dev": "cpu", "np": np, **ENV_CONSTANTS, **helpers(torch, "cpu")}
        out.append({"id": name, "expr": expr, **(opt[0] if opt else {}), **evaluate(expr, env)})
    doc = {"torch": torch.__version__, "cases": out}
    (HERE / "complex.json").write_text(json.dumps(doc, indent=1) + "\n")
    print(f"{len(out)} cases written to {HERE / 'complex.json'}")


if __name__ == "__main__":
    main()
