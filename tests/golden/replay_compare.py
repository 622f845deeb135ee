"""Evaluate compare_cases.CASES with ``torch`` bound to borch_webgpu and compare with PyTorch's
answers in compare.json: ``python replay_compare.py [--device cpu|webgpu] [case id ...]``; in the
browser through the runner with ``--mount tests/golden``. Prints one line per mismatch and
``compare: N passed, N failed, N skipped``.

One normalisation: class names in our messages are written as PyTorch's
(``borch_webgpu.tensor.Tensor`` -> ``torch.Tensor``, ``borch_webgpu.`` -> ``torch.``).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402

import borch_webgpu as bw  # noqa: E402

from compare_io import ENV_CONSTANTS, evaluate, same  # noqa: E402


def load() -> list[dict]:
    return json.loads((HERE / "compare.json").read_text())["cases"]


def has_f16(device: str) -> bool:
    try:
        bw.ones(1, dtype=bw.float16, device=device).tolist()
        return True
    except TypeError:
        return False


def _ours(message: str) -> str:
    return message.replace("borch_webgpu.tensor.Tensor", "torch.Tensor").replace("borch_webgpu.", "torch.")


def check(case: dict, device: str) -> str | None:
    """None when borch_webgpu answers as PyTorch did, else the difference."""
    got = evaluate(case["expr"], {"torch": bw, "dev": device, "np": np, **ENV_CONSTANTS})
    if "raises" not in case:
        if "raises" in got:
            return f"raised {got['raises']}: {got['message'][:300]!r}; PyTorch returns {case['out']}"
        return None if same(got["out"], case["out"]) else f"got {got['out']}, PyTorch: {case['out']}"
    if "raises" not in got:
        return f"returned {got['out']}; PyTorch raises {case['raises']}: {case['message'][:300]!r}"
    if got["raises"] != case["raises"]:
        return f"raised {got['raises']}: {got['message'][:300]!r}; PyTorch raises {case['raises']}"
    mine, theirs, how = _ours(got["message"]), case["message"], case.get("match", "exact")
    if how == "exact" and mine != theirs or how == "contains" and theirs not in mine:
        return f"message differs ({how}):\n  ours:    {mine!r}\n  PyTorch: {theirs!r}"
    return None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default=None)
    ap.add_argument("ids", nargs="*")
    ns = ap.parse_args(argv)
    device = ns.device or bw.get_default_device().type
    f16 = has_f16(device)
    passed = failed = skipped = 0
    for case in load():
        if ns.ids and case["id"] not in ns.ids:
            continue
        if (case.get("needs") == "f16" and not f16 or case.get("needs") == "cpu" and device != "cpu"
                or case.get("needs") == "no accelerator" and bw.accelerator.is_available()):
            skipped += 1
            continue
        err = check(case, device)
        if err:
            failed += 1
            print(f"FAIL {case['id']}: {err}")
        else:
            passed += 1
    print(f"compare: {passed} passed, {failed} failed, {skipped} skipped [device {device}]")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
