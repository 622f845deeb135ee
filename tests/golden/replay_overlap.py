"""Replay tests/golden/overlap.json on borch_webgpu: the same exception type and message as PyTorch
for each refused write into an expanded tensor, the same values for each allowed one.

``python replay_overlap.py [--device cpu|webgpu]``; in the browser through the runner with
``--mount tests/golden``. Prints ``overlap: N passed, N failed``."""
from __future__ import annotations

import argparse
import json
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent

import borch_webgpu as bw  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default=None)
    ns = ap.parse_args(argv)
    device = ns.device or bw.get_default_device().type
    doc = json.loads((HERE / "overlap.json").read_text())
    passed = failed = 0
    warnings.simplefilter("ignore")
    for name, snippet, want in doc["cases"]:
        env = {"torch": bw, "dev": device}
        exec(doc["setup"], env)  # noqa: S102 - our own list
        try:
            exec(snippet, env)  # noqa: S102
            got = {"values": env["x"].tolist()}
        except Exception as e:  # noqa: BLE001 - comparing with PyTorch's
            got = {"type": type(e).__name__, "message": str(e)}
        if got == want:
            passed += 1
        else:
            failed += 1
            print(f"FAIL {name}: got {got}, PyTorch {want}")
    print(f"overlap: {passed} passed, {failed} failed [device {device}]")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
