"""Run the fusion cases (fusion_cases.py, fusion_model_cases.py) with ``torch`` bound to borch_webgpu and
compare with PyTorch's answers in fusion.json: ``python replay_fusion.py [--device cpu|webgpu] [case id ...]``;
in the browser through the runner with the four files mounted. Prints one line per mismatch and
``fusion: N passed, N failed``.

Arrays pass within ``atol + rtol * |want|`` (float32 folding and convolutions summed in another order);
everything else (reprs, types, flags, messages) must be equal. Class paths in messages are written as
PyTorch's (``borch_webgpu.`` -> ``torch.``).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402

from golden_io import decode, encode  # noqa: E402

RTOL, ATOL = {"cpu": 1e-5, "webgpu": 2e-5}, 1e-5


def run_case(fn, torch, dev: str) -> dict:
    """{"out": {name: value}} (arrays encoded) or {"raises": type, "message": text}."""
    try:
        got = fn(torch, dev)
    except Exception as e:  # noqa: BLE001 - the exception is the answer
        return {"raises": type(e).__name__, "message": str(e)}
    return {"out": {k: encode(v) if isinstance(v, np.ndarray) else v for k, v in (got or {}).items()}}


def _ours(message: str) -> str:
    return message.replace("borch_webgpu.tensor.Tensor", "torch.Tensor").replace("borch_webgpu.", "torch.")


def _differs(key: str, got, want, device: str) -> str | None:
    if isinstance(want, dict) and "b64" in want:
        w = decode(want)
        if not isinstance(got, dict):
            return f"{key}: got {got!r}, PyTorch an array of shape {w.shape}"
        g = decode(got)
        if g.shape != w.shape or g.dtype != w.dtype:
            return f"{key}: shape/dtype {g.shape} {g.dtype}, PyTorch {w.shape} {w.dtype}"
        if not np.allclose(g, w, rtol=RTOL[device], atol=ATOL):
            i = int(np.argmax(np.abs(g - w)))
            return (f"{key}: max |diff| {np.abs(g - w).max():.3g} at flat {i} (ours {g.flat[i]!r}, "
                    f"PyTorch {w.flat[i]!r})")
        return None
    if got != want:
        if isinstance(got, str) and isinstance(want, str):
            return f"{key} differs:\n--- ours\n{got}\n--- PyTorch\n{want}"
        return f"{key}: ours {got!r}, PyTorch {want!r}"
    return None


def check(case: dict, fn, torch, device: str) -> list[str]:
    got = run_case(fn, torch, device)
    if "raises" in case:
        if "raises" not in got:
            return [f"returned; PyTorch raises {case['raises']}: {case['message']!r}"]
        mine, theirs = _ours(got["message"]), case["message"]
        if got["raises"] != case["raises"] or (theirs not in mine if case.get("match") == "contains" else
                                               mine != theirs):
            return [f"raised {got['raises']}: {_ours(got['message'])!r}; PyTorch {case['raises']}: {case['message']!r}"]
        return []
    if "raises" in got:
        return [f"raised {got['raises']}: {got['message'][:500]!r}; PyTorch returns"]
    want, out = case["out"], got["out"]
    bad = [f"keys: ours {sorted(out)}, PyTorch {sorted(want)}"] if sorted(out) != sorted(want) else []
    return bad + [d for k in want if k in out for d in [_differs(k, out[k], want[k], device)] if d]


def load() -> list[dict]:
    return json.loads((HERE / "fusion.json").read_text())["cases"]


def main(argv=None) -> int:
    import borch_webgpu as bw
    from fusion_model_cases import ALL_CASES
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default=None)
    ap.add_argument("ids", nargs="*")
    ns = ap.parse_args(argv)
    device = ns.device or bw.get_default_device().type
    fns = dict(ALL_CASES)
    passed = failed = 0
    for case in load():
        if ns.ids and case["id"] not in ns.ids:
            continue
        bw.manual_seed(0)
        problems = check(case, fns[case["id"]], bw, device)
        if problems:
            failed += 1
            print(f"FAIL {case['id']}: " + "\n  ".join(problems))
        else:
            passed += 1
    print(f"fusion: {passed} passed, {failed} failed [device {device}]")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
