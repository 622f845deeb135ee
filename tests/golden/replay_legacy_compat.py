"""Replay tests/golden/legacy_compat.json (PyTorch 2.13's results) on borch_webgpu:
``python tests/golden/replay_legacy_compat.py --device cpu|webgpu``. Prints one summary line, returns the number
of failures. Without WebGPU the NO_GPU cases are checked (PyTorch's CPU build refuses ``torch.cuda.*Tensor``);
with it, GPU_CASES instead: ``torch.cuda.*Tensor(data)`` gives PyTorch's values for that data, on the WebGPU
device, and passes ``isinstance`` for its type (a cpu copy does not)."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from legacy_compat_cases import GPU_CASES, describe, run  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="cpu")
    ns = ap.parse_args(argv)
    import borch_webgpu as torch
    golden = {c["id"]: c for c in json.loads((HERE / "legacy_compat.json").read_text())["cases"]}
    gpu = torch.webgpu.is_available()
    failures, passed = [], 0
    for name, c in golden.items():
        if c["no_gpu"] and gpu:
            continue
        want = {k: v for k, v in c.items() if k not in ("id", "expr", "no_gpu")}
        got = run(torch, c["expr"], ns.device)
        if got == want:
            passed += 1
        else:
            failures.append(f"{name}: {c['expr']}\n  want {want}\n  got  {got}")
    if gpu:
        for name, expr, ref in GPU_CASES:
            r = eval(expr, {"torch": torch})  # noqa: S307 - our own list
            kind = getattr(torch.cuda, expr.split(".")[2].split("(")[0])
            want = {k: golden[ref][k] for k in ("value", "dtype", "requires_grad", "is_leaf")}
            ok = (describe(r) == want and r.device.type == "webgpu" and isinstance(r, kind)
                  and not isinstance(r.cpu(), kind))
            if ok:
                passed += 1
            else:
                failures.append(f"{name}: {expr}\n  want {want} on webgpu\n  got  {describe(r)} on {r.device}")
    print(f"legacy_compat: {ns.device}: {passed} passed, {len(failures)} failed")
    for f in failures:
        print(f)
    return len(failures)


if __name__ == "__main__":
    sys.exit(main())
