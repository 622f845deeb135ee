"""Replay sparse.json (PyTorch's answers, tests/golden/generate_sparse.py) on borch_webgpu:
``python replay_sparse.py [--device cpu|webgpu] [case id ...]`` (all cases when none are named; the errors
always); in the browser through the runner with ``--mount tests/golden``. Prints one line per mismatch and
``sparse: N passed, N failed``."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402

import borch_webgpu as bw  # noqa: E402

from generate_sparse import encode, raised, run  # noqa: E402
from sparse_cases import CASES, ERRORS  # noqa: E402

# float32; the sums here add a few products (softmax: exp and a division): 1e-6 relative is PyTorch's own
# float32 noise; 1e-5 leaves a margin for a different summation order on the GPU
RTOL, ATOL = 1e-5, 1e-6


def load() -> dict:
    return json.loads((HERE / "sparse.json").read_text())


def _code(code: str) -> str:
    return code.replace("from torch.", "from borch_webgpu.")  # `import torch` is the browser's alias


def compare(name: str, got: dict, want: dict) -> list[str]:
    """Mismatches between two ``encode`` forms (floats within RTOL/ATOL, everything else exact)."""
    if set(got) != set(want):
        return [f"{name}: got {json.dumps(got)[:300]}, PyTorch {json.dumps(want)[:300]}"]
    if "seq" in want:
        if len(got["seq"]) != len(want["seq"]):
            return [f"{name}: {len(got['seq'])} items, PyTorch {len(want['seq'])}"]
        return [e for i, (g, w) in enumerate(zip(got["seq"], want["seq"])) for e in compare(f"{name}[{i}]", g, w)]
    if "sparse" in want:
        errs = [f"{name}.{k}: got {got[k]!r}, PyTorch {want[k]!r}" for k in ("indices", "size", "coalesced", "dtype")
                if got[k] != want[k]]
        if got["repr"] != want["repr"]:
            errs.append(f"{name}.repr: got\n{got['repr']}\nPyTorch\n{want['repr']}")
        return errs + compare(name + ".values", got["values"], want["values"])
    if "value" in want:
        return [] if got == want else [f"{name}: got {got['value']!r}, PyTorch {want['value']!r}"]
    if got["dtype"] != want["dtype"] or got["shape"] != want["shape"]:
        return [f"{name}: got {got['dtype']} {got['shape']}, PyTorch {want['dtype']} {want['shape']}"]
    a, b = np.asarray(got["values"], np.float64), np.asarray(want["values"], np.float64)
    ok = np.allclose(a, b, rtol=RTOL, atol=ATOL, equal_nan=True) if want["dtype"].startswith("torch.float") \
        else np.array_equal(a, b)
    return [] if ok else [f"{name}: got {got['values']}, PyTorch {want['values']}"]


def check_case(case: dict, code: str) -> list[str]:
    try:
        got = encode(run(_code(code), bw), bw)
    except Exception as e:  # noqa: BLE001 - reported as a mismatch
        return [f"{case['id']}: raised {type(e).__name__}: {e}"]
    return compare(case["id"], got, case["out"])


def check_error(want: dict, code: str, match: str) -> list[str]:
    got = raised(_code(code), bw)
    if got["type"] != want["type"]:
        return [f"error {want['id']}: got {got['type']}: {got['message']}, PyTorch {want['type']}: {want['message']}"]
    if match == "aten":
        cut = want["message"].split(" with arguments")[0]
        ok = got["message"].split(" with arguments")[0] == cut
    else:
        ok = got["message"] == want["message"]
    return [] if ok else [f"error {want['id']}: got {got['message']!r}, PyTorch {want['message']!r}"]


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--device", default="cpu")
    p.add_argument("ids", nargs="*")
    args = p.parse_args(argv)
    if args.device == "cpu":
        bw.set_default_device("cpu")
    gold = load()
    specs = {c[0]: c for c in CASES}
    errors = {e[0]: e for e in ERRORS}
    bad, passed = [], 0
    for case in gold["cases"]:
        spec = specs[case["id"]]
        if (args.ids and case["id"] not in args.ids) or (len(spec) > 2 and spec[2] != args.device):
            continue
        errs = check_case(case, spec[1])
        bad += errs
        passed += not errs
    for want in gold["errors"]:
        spec = errors[want["id"]]
        if len(spec) > 3 and spec[3] != args.device:
            continue
        errs = check_error(want, spec[1], spec[2])
        bad += errs
        passed += not errs
    for line in bad:
        print(line)
    print(f"sparse: {passed} passed, {len(bad)} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
