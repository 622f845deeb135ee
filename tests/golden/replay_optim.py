"""Replay the ``torch.optim`` scenarios and bad inputs on borch_webgpu:
``python replay_optim.py [--device cpu|webgpu] [--golden optim.json|optim_more.json|nn_mod.json]``. Prints one line per mismatch and
``optim: N passed, N failed``.

Trajectories are compared per element within TOL (float32 updates whose rounding may differ
from PyTorch's by an ulp per step: PyTorch fuses ``addcmul``/``addcdiv``, we do not yet); plain
values (learning rates, state_dict structure, reprs) must be equal, floats to 1e-12 relative;
errors must have PyTorch's exception type and message."""
from __future__ import annotations

import argparse
import json
import math
import sys
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import borch_webgpu as bw  # noqa: E402

from golden_io import compare  # noqa: E402

TOL = (1e-5, 1e-6)  # (rtol, atol) for parameter trajectories and optimizer state


def plain(v):
    return json.loads(json.dumps(v))


def same(got, want, where: str = "") -> str | None:
    """None when the plain values match (floats to 1e-12 relative), else where they differ."""
    if isinstance(want, float) and isinstance(got, (int, float)) and not isinstance(got, bool):
        if got == want or (math.isnan(got) and math.isnan(want)) or abs(got - want) <= 1e-12 * abs(want):
            return None
        return f"{where or 'value'}: got {got!r}, expected {want!r}"
    if isinstance(want, list) and isinstance(got, list):
        if len(got) != len(want):
            return f"{where or 'list'}: {len(got)} items, expected {len(want)}: got {got!r}, expected {want!r}"
        for i, (g, w) in enumerate(zip(got, want)):
            err = same(g, w, f"{where}[{i}]")
            if err:
                return err
        return None
    if isinstance(want, dict) and isinstance(got, dict):
        if sorted(got) != sorted(want):
            return f"{where or 'dict'}: keys {sorted(got)}, expected {sorted(want)}"
        for k in want:
            err = same(got[k], want[k], f"{where}[{k!r}]")
            if err:
                return err
        return None
    if type(got) is not type(want) or got != want:
        return f"{where or 'value'}: got {got!r}, expected {want!r}"
    return None


def check(got, want) -> str | None:
    if "tensor" in want:
        if not isinstance(got, bw.Tensor):
            return f"expected a tensor, got {got!r}"
        return compare(got.detach().numpy(), want["tensor"], *TOL)
    if isinstance(got, bw.Tensor):
        return f"expected {want['value']!r}, got a tensor"
    return same(plain(got), want["value"])


def run_case(prelude: str, snippet: str, want: list, device: str) -> list[str]:
    env = {"torch": bw, "dev": device}
    try:
        exec(prelude + snippet, env)  # noqa: S102 - our own list
        got = env["result"]
        errs = [f"result {i}: {e}" for i, e in enumerate(check(g, w) for g, w in zip(got, want)) if e]
        if len(got) != len(want):
            errs.append(f"{len(got)} results, expected {len(want)}")
    except Exception as e:  # noqa: BLE001
        errs = [f"raised {type(e).__name__}: {e}"]
    return errs


def run_error(snippet: str, want: dict, device: str) -> str | None:
    try:
        exec(snippet, {"torch": bw, "dev": device})  # noqa: S102 - our own list
    except Exception as e:  # noqa: BLE001 - comparing with PyTorch's type
        if type(e).__name__ != want["type"] or str(e) != want["message"]:
            return f"raised {type(e).__name__}: {str(e)!r}; PyTorch raises {want['type']}: {want['message']!r}"
        return None
    return f"did not raise; PyTorch raises {want['type']}: {want['message']!r}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default=None)
    ap.add_argument("--golden", default="optim.json", choices=["optim.json", "optim_more.json", "nn_mod.json"])
    ns = ap.parse_args(argv)
    device = ns.device or bw.get_default_device().type
    doc = json.loads((HERE / ns.golden).read_text())
    passed = failed = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, snippet, want in doc["cases"]:
            errs = run_case(doc["prelude"], snippet, want, device)
            if errs:
                failed += 1
                print(f"FAIL {name}: {'; '.join(errs)}")
            else:
                passed += 1
        for name, snippet, want in doc["errors"]:
            err = run_error(snippet, want, device)
            if err:
                failed += 1
                print(f"FAIL error {name}: {err}")
            else:
                passed += 1
    print(f"optim: {passed} passed, {failed} failed [device {device}, {ns.golden}]")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
