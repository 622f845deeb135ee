"""Record PyTorch's exception for each case (bad index, zero divisor) of kernel_error_cases.CASES, and the message of
torch.cuda.set_sync_debug_mode for a bad mode (from its source: this torch has no CUDA to call):
``python tests/golden/generate_kernel_errors.py`` (needs torch==2.13.0; writes kernel_errors.json)."""
from __future__ import annotations

import inspect
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import torch  # noqa: E402

from kernel_error_cases import AT_ONCE, CASES, VALUES  # noqa: E402

TORCH_VERSION = "2.13.0"


def main() -> None:
    if torch.__version__.split("+")[0] != TORCH_VERSION:
        sys.exit(f"kernel_errors.json comes from torch {TORCH_VERSION}; this is {torch.__version__}")
    out = []
    for name, op, snippet in CASES:
        try:
            exec(compile(snippet, f"<{name}>", "exec"), {"torch": torch, "dev": "cpu"})  # noqa: S102 - our list
        except Exception as e:  # noqa: BLE001
            out.append({"id": name, "op": op, "snippet": snippet, "type": type(e).__name__, "message": str(e)})
            continue
        raise SystemExit(f"{name}: PyTorch did not raise; every case must be a bad index or a zero divisor")
    at_once = []
    for name, snippet in AT_ONCE:
        try:
            exec(compile(snippet, f"<{name}>", "exec"), {"torch": torch, "dev": "cpu"})  # noqa: S102 - our list
        except Exception as e:  # noqa: BLE001
            at_once.append({"id": name, "snippet": snippet, "type": type(e).__name__, "message": str(e)})
            continue
        raise SystemExit(f"{name}: PyTorch did not raise")
    values = []
    for name, snippet in VALUES:
        r = eval(snippet, {"torch": torch, "dev": "cpu"})  # noqa: S307 - our list
        values.append({"id": name, "snippet": snippet, "dtype": str(r.dtype).removeprefix("torch."),
                       "shape": list(r.shape), "value": r.tolist()})
    src = inspect.getsource(torch.cuda.set_sync_debug_mode)
    bad_mode = re.search(r'"(invalid value of debug_mode[^"]*)"', src).group(1)
    doc = {"torch": torch.__version__, "cases": out, "at_once": at_once, "values": values,
           "set_sync_debug_mode": {"type": "RuntimeError", "message": bad_mode}}
    (HERE / "kernel_errors.json").write_text(json.dumps(doc, indent=1) + "\n")
    print(f"{len(out)} cases written to {HERE / 'kernel_errors.json'}")


if __name__ == "__main__":
    main()
