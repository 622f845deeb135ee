"""Evaluate dtype64_cases.CASES with ``torch`` bound to borch_webgpu and compare with PyTorch's answers
in dtype64.json: ``python replay_dtype64.py [--device cpu|webgpu] [case id ...]``; in the browser
through the runner with ``--mount tests/golden``. Prints one line per mismatch and
``dtype64: N passed, N failed [device ...]``."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402

import borch_webgpu as bw  # noqa: E402

from compare_io import ENV_CONSTANTS  # noqa: E402
from dtype64_cases import close, evaluate, helpers  # noqa: E402


def load(name: str = "dtype64.json") -> list[dict]:
    return json.loads((HERE / name).read_text())["cases"]


def check(case: dict, device: str, helpers=helpers) -> str | None:
    """None when borch_webgpu answers as PyTorch did, else the difference."""
    env = {"torch": bw, "dev": device, "np": np, **ENV_CONSTANTS, **helpers(bw, device)}
    got = evaluate(case["expr"], env)
    if bw.get_default_dtype() is not bw.float32:
        bw.set_default_dtype(bw.float32)
        return "the default dtype was left changed"
    if "raises" not in case:
        if "raises" in got:
            return f"raised {got['raises']}: {got['message'][:300]!r}; PyTorch returns {case['out']}"
        return close(got["out"], case["out"])
    if "raises" not in got:
        return f"returned {got['out']}; PyTorch raises {case['raises']}: {case['message'][:300]!r}"
    if got["raises"] != case["raises"] or case["message"] not in got["message"]:
        return f"raised {got['raises']}: {got['message'][:300]!r}; PyTorch {case['raises']}: {case['message']!r}"
    return None


def placement_failures(device: str) -> list[str]:
    """Where the values live (PyTorch has no such thing to compare with): on webgpu a float64 tensor
    reports webgpu:0 and is held on the host; results of other dtypes, and casts, are on the GPU."""
    from borch_webgpu.device.cpu import CPUStorage
    x = bw.tensor([0.1, 0.2], dtype=bw.float64, device=device)
    f = bw.ones(2, device=device)
    on_host = {"float64 tensor": x, "float64 + float32": x + f, "float32.double()": f.double(),
               "float64 sum": x.sum(), "float64 grad": bw.autograd.grad((x.requires_grad_() * 2).sum(), x)[0]}
    elsewhere = {"float64 > 0": x > 0, "float64.float()": x.float(), "float64.argmax()": x.argmax(),
                 "float32 += float64": f.add_(x.detach())}
    bad = [f"{k}: device {t.device}" for k, t in {**on_host, **elsewhere}.items() if str(t.device) != str(f.device)]
    bad += [f"{k}: not held on the host" for k, t in on_host.items() if not isinstance(t._storage, CPUStorage)]
    if device == "webgpu":
        bad += [f"{k}: not on the GPU" for k, t in elsewhere.items() if isinstance(t._storage, CPUStorage)]
    return bad


def main(argv=None, golden: str = "dtype64.json", helpers=helpers, placement=placement_failures,
         label: str = "dtype64") -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default=None)
    ap.add_argument("ids", nargs="*")
    ns = ap.parse_args(argv)
    device = ns.device or bw.get_default_device().type
    passed = failed = 0
    for case in load(golden):
        if ns.ids and case["id"] not in ns.ids:
            continue
        err = check(case, device, helpers)
        if err:
            failed += 1
            print(f"FAIL {case['id']}: {err}")
        else:
            passed += 1
    if not ns.ids:
        for err in placement(device):
            failed += 1
            print(f"FAIL placement {err}")
    print(f"{label}: {passed} passed, {failed} failed [device {device}]")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
