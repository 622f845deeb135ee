"""Record PyTorch's result of each case of legacy_compat_cases.CASES:
``python tests/golden/generate_legacy_compat.py`` (needs torch==2.13.0, a CPU build; writes legacy_compat.json)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import torch  # noqa: E402

from legacy_compat_cases import CASES, run  # noqa: E402

TORCH_VERSION = "2.13.0"


def main() -> None:
    if torch.__version__.split("+")[0] != TORCH_VERSION:
        sys.exit(f"legacy_compat.json comes from torch {TORCH_VERSION}; this is {torch.__version__}")
    if torch.cuda.is_available():
        sys.exit("the NO_GPU cases record a CPU-only PyTorch; this one has CUDA")
    out = [{"id": name, "expr": expr, "no_gpu": bool(rest), **run(torch, expr, "cpu")} for name, expr, *rest in CASES]
    (HERE / "legacy_compat.json").write_text(json.dumps({"torch": torch.__version__, "cases": out}, indent=1) + "\n")
    print(f"{len(out)} cases written to {HERE / 'legacy_compat.json'}")


if __name__ == "__main__":
    main()
