"""Replay the autograd scenarios on borch_webgpu: ``python replay_autograd.py [--device cpu|webgpu]``.
Prints one line per mismatch and ``autograd: N passed, N failed``."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import borch_webgpu as bw  # noqa: E402

from golden_io import compare  # noqa: E402

TOL = (1e-5, 1e-6)


def check(got, want) -> str | None:
    if "tensor" in want:
        if not isinstance(got, bw.Tensor):
            return f"expected a tensor, got {got!r}"
        return compare(got.detach().numpy(), want["tensor"], *TOL)
    return None if got == want["value"] else f"got {got!r}, expected {want['value']!r}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default=None)
    ns = ap.parse_args(argv)
    device = ns.device or bw.get_default_device().type
    doc = json.loads((HERE / "autograd.json").read_text())
    passed = failed = 0
    for name, snippet, want in doc["cases"]:
        env = {"torch": bw, "dev": device}
        try:
            exec(snippet, env)  # noqa: S102 - our own list
            got = env["result"]
            errs = [e for e in (check(g, w) for g, w in zip(got, want)) if e]
            if len(got) != len(want):
                errs.append(f"{len(got)} results, expected {len(want)}")
        except Exception as e:  # noqa: BLE001
            errs = [f"raised {type(e).__name__}: {e}"]
        if errs:
            failed += 1
            print(f"FAIL {name}: {'; '.join(errs)}")
        else:
            passed += 1
    print(f"autograd: {passed} passed, {failed} failed [device {device}]")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
