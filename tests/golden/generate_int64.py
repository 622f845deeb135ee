"""Record PyTorch's int64 result of each case of int64_cases.CASES (a list, an int for a 0-d
result, or the string a printing case gives): ``python tests/golden/generate_int64.py`` (needs torch==2.13.0; writes int64.json)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import torch  # noqa: E402

from int64_cases import CASES  # noqa: E402

TORCH_VERSION = "2.13.0"
INT32 = (-(2 ** 31), 2 ** 31 - 1)


def _flat(v):
    return [x for y in v for x in _flat(y)] if isinstance(v, list) else [v]


def main() -> None:
    if torch.__version__.split("+")[0] != TORCH_VERSION:
        sys.exit(f"int64.json comes from torch {TORCH_VERSION}; this is {torch.__version__}")
    out = []
    for name, ops, expr, *marks in CASES:
        marked = {"host": "host" in marks, "moves": "moves" in marks, "used": "used" in marks}
        try:
            r = eval(expr, {"torch": torch, "dev": "cpu"})  # noqa: S307 - our own list
        except Exception as e:  # noqa: BLE001 - PyTorch's refusal is the golden
            out.append({"id": name, "ops": list(ops), "expr": expr, "raises": type(e).__name__, "message": str(e),
                        "fits": True, **marked})
            continue
        if isinstance(r, str):  # printing
            value, dtype, fits = r, "str", True
        else:
            value, dtype = r.tolist(), str(r.dtype)
            fits = r.dtype != torch.int64 or all(INT32[0] <= x <= INT32[1] for x in _flat(value))
        out.append({"id": name, "ops": list(ops), "expr": expr, "dtype": dtype, "value": value, "fits": fits,
                    **marked})
    (HERE / "int64.json").write_text(json.dumps({"torch": torch.__version__, "cases": out}, indent=1) + "\n")
    print(f"{len(out)} cases written to {HERE / 'int64.json'}")


if __name__ == "__main__":
    main()
