"""Record PyTorch's results for the autograd scenarios: ``python tests/golden/generate_autograd.py``
(needs torch==2.13.0; writes tests/golden/autograd.json)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import torch  # noqa: E402

from autograd_cases import AUTOGRAD_SNIPPETS  # noqa: E402
from golden_io import encode  # noqa: E402


def value_spec(v):
    if isinstance(v, torch.Tensor):
        return {"tensor": encode(v.detach().numpy())}
    if v is None or isinstance(v, (bool, int, float, str)):
        return {"value": v}
    raise TypeError(type(v))


def main() -> None:
    out = []
    for name, snippet in AUTOGRAD_SNIPPETS:
        env = {"torch": torch, "dev": "cpu"}
        exec(snippet, env)  # noqa: S102 - our own list
        out.append([name, snippet, [value_spec(v) for v in env["result"]]])
    (HERE / "autograd.json").write_text(json.dumps({"torch": torch.__version__, "cases": out}, indent=1) + "\n")
    print(f"{len(out)} autograd scenarios written")


if __name__ == "__main__":
    main()
