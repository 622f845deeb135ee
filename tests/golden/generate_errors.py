"""Record PyTorch's exception for each bad-input snippet: ``python tests/golden/generate_errors.py``
(needs torch==2.13.0; writes tests/golden/errors.json)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import torch  # noqa: E402

from error_cases import ERROR_SNIPPETS  # noqa: E402


def main() -> None:
    out = []
    for name, snippet in ERROR_SNIPPETS:
        try:
            exec(snippet, {"torch": torch, "dev": "cpu"})  # noqa: S102 - our own list
        except Exception as e:  # noqa: BLE001
            out.append([name, snippet, {"type": type(e).__name__, "message": str(e)}])
            continue
        raise SystemExit(f"{name}: PyTorch did not raise; every snippet must be bad input")
    (HERE / "errors.json").write_text(json.dumps({"torch": torch.__version__, "errors": out}, indent=1) + "\n")
    print(f"{len(out)} error cases written")


if __name__ == "__main__":
    main()
