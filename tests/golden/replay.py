"""Replay the frozen PyTorch goldens on borch_webgpu: ``python replay.py [--device cpu|webgpu] [op ...]``.

Runs in CPython (cpu device) and inside Pyodide through the runner (webgpu device):
``python -m borch_webgpu.run --mount tests/golden tests/golden/replay.py --device webgpu``.
Prints one line per failing case and ``golden: N passed, N failed`` with the device and adapter.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import borch_webgpu as bw  # noqa: E402
from borch_webgpu.ops._registry import REGISTRY  # noqa: E402

from golden_io import compare, decode  # noqa: E402

DTYPES = {"float32": bw.float32, "int64": bw.int64, "int32": bw.int32, "bool": bw.bool, "float16": bw.float16}


def build(spec, device):
    if "tensor" in spec:
        return bw.tensor(decode(spec["tensor"]), device=device)
    if "float" in spec:
        return float(spec["float"])
    if "seq" in spec:
        items = [build(s, device) for s in spec["seq"]]
        return tuple(items) if spec.get("tuple") else items
    v = spec["value"]
    if isinstance(v, str) and v in DTYPES:
        return DTYPES[v]
    return v


def resolve(name: str, args):
    if name.startswith("Tensor."):
        return getattr(args[0], name.split(".", 1)[1]), args[1:]
    obj = bw
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj, args


def check_output(got, spec, tol, signed_zero) -> str | None:
    if "tensor" in spec:
        if not isinstance(got, bw.Tensor):
            return f"expected a tensor, got {type(got).__name__}"
        return compare(got.detach().numpy() if hasattr(got, "detach") else got.numpy(), spec["tensor"], *tol,
                       signed_zero=signed_zero)
    if "seq" in spec:
        if not isinstance(got, (tuple, list)) or len(got) != len(spec["seq"]):
            return f"expected a sequence of {len(spec['seq'])}, got {got!r}"
        for i, (g, s) in enumerate(zip(got, spec["seq"])):
            err = check_output(g, s, tol, signed_zero)
            if err:
                return f"[{i}] {err}"
        return None
    want = spec["value"]
    want = float(want) if isinstance(want, str) else want
    if isinstance(want, float) and (math.isnan(want) and isinstance(got, float) and math.isnan(got)):
        return None
    if isinstance(want, float) and isinstance(got, (int, float)) and abs(got - want) <= tol[1] + tol[0] * abs(want):
        return None
    return None if got == want else f"got {got!r}, expected {want!r}"


def run_case(op: str, c: dict, device) -> str | None:
    args = [build(a, device) for a in c["args"]]
    kwargs = {k: build(v, device) for k, v in c["kwargs"].items()}
    fn, call_args = resolve(c["fn"], args)
    opdef = REGISTRY[op]
    if "raises" in c:
        try:
            fn(*call_args, **kwargs)
        except Exception as e:  # noqa: BLE001 - comparing the type with PyTorch's
            if type(e).__name__ != c["raises"]:
                return f"raised {type(e).__name__}: {e}; PyTorch raises {c['raises']}"
            return None
        return f"did not raise; PyTorch raises {c['raises']}"
    try:
        got = fn(*call_args, **kwargs)
    except Exception as e:  # noqa: BLE001
        return f"raised {type(e).__name__}: {e}"
    return check_output(got, c["out"], opdef.tol, opdef.extra.get("signed_zero", opdef.family != "reduce"))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default=None, help="cpu or webgpu (default: the default device)")
    ap.add_argument("--max-report", type=int, default=40)
    ap.add_argument("ops", nargs="*")
    ns = ap.parse_args(argv)
    device = bw.device(ns.device) if ns.device else bw.get_default_device()
    if device.type == "webgpu" and not bw.webgpu.is_available():
        print("golden: WebGPU is not available here", file=sys.stderr)
        return 2
    files = sorted((HERE / "cases").glob("*.json"))
    passed = failed = 0
    t0 = time.perf_counter()
    for f in files:
        doc = json.loads(f.read_text())
        op = doc["op"]
        if ns.ops and op not in ns.ops:
            continue
        for c in doc["cases"]:
            err = run_case(op, c, device)
            if err is None:
                passed += 1
            else:
                failed += 1
                if failed <= ns.max_report:
                    print(f"FAIL {op} [{c['id']}] {c['fn']}: {err}")
    dt = time.perf_counter() - t0
    where = f"device {device.type}"
    if device.type == "webgpu":
        info = bw.webgpu.adapter_info()
        kind = "software, CPU" if info["is_software"] else "GPU"
        where += f", adapter {info['vendor']} / {info['architecture']} ({kind})"
        st = bw.webgpu.stats()
        print(f"golden: pipelines created {st['pipelines']}, dispatches {st['dispatches']}, "
              f"flushes {st['flushes']}, bind groups {st['bindGroupsCreated']}")
    print(f"golden: {passed} passed, {failed} failed [{where}] in {dt:.1f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
