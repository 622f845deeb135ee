"""Evaluate bf16_cases.CASES with ``torch`` bound to borch_webgpu and compare with PyTorch's answers in
bf16.json: ``python replay_bf16.py [--device cpu|webgpu] [case id ...]``; in the browser through the
runner with ``--mount tests/golden``. Values are compared exactly (bfloat16 values are exact in JSON),
or, for a case with ``"tol"`` (reductions, matmul, whose float32 sums run in another order), to within
tol times the largest magnitude of PyTorch's result. Prints one line per mismatch and
``bf16: N passed, N failed [device ...]``."""
from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402

import borch_webgpu as bw  # noqa: E402

from bf16_cases import helpers  # noqa: E402
from compare_io import ENV_CONSTANTS  # noqa: E402
from dtype64_cases import evaluate  # noqa: E402


def load(name: str = "bf16.json") -> list[dict]:
    return json.loads((HERE / name).read_text())["cases"]


def _flat(v):
    if isinstance(v, dict) and "value" in v:
        v = v["value"]
    if isinstance(v, list):
        return [y for x in v for y in _flat(x)]
    return [float(v) if isinstance(v, str) else v]


def _values(got, want, tol: float, where: str) -> str | None:
    g, w = _flat(got), _flat(want)
    if len(g) != len(w):
        return f"{where}: {len(g)} values, PyTorch {len(w)}"
    scale = max([abs(y) for y in w if isinstance(y, float) and math.isfinite(y)] + [1e-30])
    for i, (x, y) in enumerate(zip(g, w)):
        if isinstance(y, bool) or isinstance(y, int) or isinstance(x, bool):
            if type(x) is not type(y) or x != y:
                return f"{where}[{i}]: {x!r}, PyTorch {y!r}"
            continue
        if x == y or (x != x and y != y):
            continue
        if tol and math.isfinite(y) and abs(x - y) <= tol * scale:
            continue
        return f"{where}[{i}]: {x!r}, PyTorch {y!r}" + (f" (tolerance {tol} of {scale:g})" if tol else " (exact)")
    return None


def close(got: dict, want: dict, tol: float = 0.0, where: str = "out") -> str | None:
    """None when an encoded value matches PyTorch's (exactly, or values to tol of the result's scale)."""
    if set(got) != set(want):
        return f"{where}: {str(got)[:300]} against PyTorch's {str(want)[:300]}"
    if "seq" in want:
        if len(got["seq"]) != len(want["seq"]):
            return f"{where}: {len(got['seq'])} items, PyTorch {len(want['seq'])}"
        for i, (g, w) in enumerate(zip(got["seq"], want["seq"])):
            err = close(g, w, tol, f"{where}[{i}]")
            if err:
                return err
        return None
    if "tensor" in want:
        g, w = got["tensor"], want["tensor"]
        if (g["dtype"], g["shape"]) != (w["dtype"], w["shape"]):
            return f"{where}: {g['dtype']} {g['shape']}, PyTorch {w['dtype']} {w['shape']}"
        return _values(g["values"], w["values"], tol, where)
    if "value" in want and isinstance(want["value"], float):
        return _values(got["value"], want["value"], tol, where)
    return None if got == want else f"{where}: {got}, PyTorch {want}"


def _no_f16(device: str) -> bool:
    """Whether float16 is refused here: on webgpu without the adapter feature shader-f16 (SwiftShader)."""
    if device != "webgpu":
        return False
    from borch_webgpu.device.webgpu import runtime
    return "shader-f16" not in runtime().features


def check(case: dict, device: str, helpers=helpers) -> str | None:
    """None when borch_webgpu answers as PyTorch did, else the difference."""
    env = {"torch": bw, "dev": device, "np": np, **ENV_CONSTANTS, **helpers(bw, device)}
    got = evaluate(case["expr"], env)
    if bw.get_default_dtype() is not bw.float32:
        bw.set_default_dtype(bw.float32)
        return "the default dtype was left changed"
    if case.get("f16") and _no_f16(device):  # this adapter refuses float16, and must say so
        if got.get("raises") == "TypeError" and "shader-f16" in got["message"]:
            return None
        return f"float16 without shader-f16: expected the TypeError naming shader-f16, got {str(got)[:300]}"
    if "raises" not in case:
        if "raises" in got:
            return f"raised {got['raises']}: {got['message'][:300]!r}; PyTorch returns {str(case['out'])[:300]}"
        return close(got["out"], case["out"], case.get("tol", 0.0))
    if "raises" not in got:
        return f"returned {str(got['out'])[:300]}; PyTorch raises {case['raises']}: {case['message'][:300]!r}"
    if got["raises"] != case["raises"] or case["message"] not in got["message"]:
        return f"raised {got['raises']}: {got['message'][:300]!r}; PyTorch {case['raises']}: {case['message']!r}"
    return None


def placement_failures(device: str) -> list[str]:
    """Where the values live: on webgpu a bfloat16 tensor reports webgpu:0 and is held on the host
    (borch_webgpu/_dtype.py); results of other dtypes (casts, comparisons, float32 promotion) go to the GPU."""
    from borch_webgpu.device.cpu import CPUStorage
    b = bw.tensor([1.5, -2.25], dtype=bw.bfloat16, device=device)
    f = bw.ones(2, device=device)
    on_host = {"bfloat16 tensor": b, "bfloat16 + 1": b + 1, "float32.bfloat16()": f.bfloat16(), "bfloat16 sum": b.sum()}
    elsewhere = {"bfloat16 > 0": b > 0, "bfloat16.float()": b.float(), "bfloat16 + float32": b + f}
    bad = [f"{k}: device {t.device}" for k, t in {**on_host, **elsewhere}.items() if str(t.device) != str(f.device)]
    bad += [f"{k}: not held on the host" for k, t in on_host.items() if not isinstance(t._storage, CPUStorage)]
    if device == "webgpu":
        bad += [f"{k}: not on the GPU" for k, t in elsewhere.items() if isinstance(t._storage, CPUStorage)]
    return bad


def main(argv=None, golden: str = "bf16.json", helpers=helpers, placement=placement_failures,
         label: str = "bf16") -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default=None)
    ap.add_argument("ids", nargs="*")
    ns = ap.parse_args(argv)
    device = ns.device or bw.get_default_device().type
    passed = failed = other = 0
    times: list = []
    for case in load(golden):
        if ns.ids and case["id"] not in ns.ids:
            continue
        if case.get("no_gpu") and device == "webgpu":
            other += 1  # about a machine without a GPU; placement() checks what WebGPU does instead
            continue
        t0 = time.perf_counter()
        err = check(case, device, helpers)
        times.append((time.perf_counter() - t0, case["id"]))
        if err:
            failed += 1
            print(f"FAIL {case['id']}: {err}")
        else:
            passed += 1
    if not ns.ids:
        for err in placement(device):
            failed += 1
            print(f"FAIL placement {err}")
    slow = ", ".join(f"{name} {t:.2f} s" for t, name in sorted(times, reverse=True)[:5])
    print(f"slowest: {slow}")
    note = f" ({other} no-GPU cases replaced by the WebGPU checks)" if other else ""
    print(f"{label}: {passed} passed, {failed} failed [device {device}]{note}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
