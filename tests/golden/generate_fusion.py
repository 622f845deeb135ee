"""Freeze PyTorch's answers to the fusion cases (fusion_cases.py, fusion_model_cases.py) into fusion.json:
``PYTHONPATH= /tmp/torchenv/bin/python tests/golden/generate_fusion.py`` (needs torch==2.13.0, the CPU build)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import torch  # noqa: E402

from fusion_model_cases import ALL_CASES  # noqa: E402
from replay_fusion import run_case  # noqa: E402

TORCH_VERSION = "2.13.0"


def main() -> None:
    if torch.__version__.split("+")[0] != TORCH_VERSION:
        sys.exit(f"fusion.json comes from torch {TORCH_VERSION}; this is {torch.__version__}")
    ids = [name for name, _ in ALL_CASES]
    if len(set(ids)) != len(ids):
        sys.exit("duplicate case ids")
    torch.manual_seed(0)
    cases = [{"id": name, **({"match": fn.match} if fn.match != "exact" else {}), **run_case(fn, torch, "cpu")}
             for name, fn in ALL_CASES]
    (HERE / "fusion.json").write_text(json.dumps({"torch": torch.__version__, "cases": cases}, indent=1) + "\n")
    print(f"{len(cases)} cases written to {HERE / 'fusion.json'}")


if __name__ == "__main__":
    main()
