"""Evaluate complex_cases.CASES with ``torch`` bound to borch_webgpu and compare with PyTorch's answers
in complex.json: ``python replay_complex.py [--device cpu|webgpu] [case id ...]``; in the browser
through the runner with ``--mount tests/golden``. Prints one line per mismatch and
``complex: N passed, N failed, N cpu-only [device ...]``."""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402

import borch_webgpu as bw  # noqa: E402

from compare_io import ENV_CONSTANTS  # noqa: E402
from complex_cases import close, evaluate, helpers  # noqa: E402


def load() -> list[dict]:
    return json.loads((HERE / "complex.json").read_text())["cases"]


_ENVS: dict[str, dict] = {}


def check(case: dict, device: str) -> str | None:
    """None when borch_webgpu answers as PyTorch did, else the difference. The inputs are made once per
    device (no case changes them: those that write work on clones), which keeps the browser run short."""
    if device not in _ENVS:
        _ENVS[device] = {"torch": bw, "dev": device, "np": np, **ENV_CONSTANTS, **helpers(bw, device)}
    got = evaluate(case["expr"], _ENVS[device])
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
    """Where the values live (PyTorch has no such thing): complex tensors report the device and are held
    on the host; real results (abs, .real, irfft, comparisons) are on the GPU on webgpu."""
    from borch_webgpu.device.cpu import CPUStorage
    z = bw.tensor([1 + 2j, 3 - 1j], device=device)
    x = bw.ones(2, device=device)
    on_host = {"complex tensor": z, "complex + float32": z + x, "float32 * 1j": x * 1j, "fft": bw.fft.fft(x),
               "complex grad": bw.autograd.grad((z.requires_grad_() * 2).abs().sum(), z)[0]}
    elsewhere = {"abs": z.abs(), "real": z.real, "irfft": bw.fft.irfft(z), "eq": z == z,
                 "angle": z.angle(), "to float32": z.detach().real.float()}
    bad = [f"{k}: device {t.device}" for k, t in {**on_host, **elsewhere}.items() if str(t.device) != str(x.device)]
    bad += [f"{k}: not held on the host" for k, t in on_host.items() if not isinstance(t._storage, CPUStorage)]
    if device == "webgpu":
        bad += [f"{k}: not on the GPU" for k, t in elsewhere.items() if isinstance(t._storage, CPUStorage)]
    return bad


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default=None)
    ap.add_argument("ids", nargs="*")
    ns = ap.parse_args(argv)
    device = ns.device or bw.get_default_device().type
    passed = failed = cpu_only = 0
    took = []
    start = time.perf_counter()
    for case in load():
        if ns.ids and case["id"] not in ns.ids:
            continue
        if device not in case.get("devices", [device]):
            cpu_only += 1   # memory aliasing of .real / view_as_real: copies on webgpu (ops/complex.py)
            continue
        t0 = time.perf_counter()
        err = check(case, device)
        took.append((time.perf_counter() - t0, case["id"]))
        if err:
            failed += 1
            print(f"FAIL {case['id']}: {err}")
        else:
            passed += 1
    if not ns.ids:
        for err in placement_failures(device):
            failed += 1
            print(f"FAIL placement {err}")
    slow = ", ".join(f"{name} {dt:.2f} s" for dt, name in sorted(took, reverse=True)[:5])
    print(f"complex: {time.perf_counter() - start:.1f} s; slowest: {slow}")
    print(f"complex: {passed} passed, {failed} failed, {cpu_only} cpu-only [device {device}]")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
