"""Record PyTorch's answer to each in-place write into an expanded tensor: ``python
tests/golden/generate_overlap.py`` (needs torch==2.13.0; writes tests/golden/overlap.json)."""
from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import torch  # noqa: E402

from overlap_cases import OVERLAP_SNIPPETS, SETUP  # noqa: E402


def main() -> None:
    out = []
    warnings.simplefilter("ignore")   # the indexed writes' deprecation warnings
    for name, snippet in OVERLAP_SNIPPETS:
        env = {"torch": torch, "dev": "cpu"}
        exec(SETUP, env)  # noqa: S102 - our own list
        try:
            exec(snippet, env)  # noqa: S102
        except Exception as e:  # noqa: BLE001
            out.append([name, snippet, {"type": type(e).__name__, "message": str(e)}])
            continue
        out.append([name, snippet, {"values": env["x"].tolist()}])
    (HERE / "overlap.json").write_text(json.dumps({"torch": torch.__version__, "setup": SETUP, "cases": out},
                                                  indent=1) + "\n")
    print(f"{len(out)} cases written, {sum('type' in c[2] for c in out)} refused")


if __name__ == "__main__":
    main()
