"""Run profiler_cases.PROGRAMS with ``torch`` bound to borch_webgpu and compare with what PyTorch reported
(profiler.json): ``python replay_profiler.py [--device cpu|webgpu] [program ...]``; in the browser through the runner
with ``--mount tests/golden``. Prints one line per mismatch and ``profiler: N passed, N failed``.

Compared: the table's header line and column titles, the events directly inside the ``record_function``
ranges (names and call counts), the input shapes of ``aten::mm``, the operators' event names, every
schedule's actions per step, warnings and errors, and for each trace handed to ``on_trace_ready`` the step
it came at and its events (names, parents, averaged counts). Not compared: times, and the children PyTorch's
ATen ops have (``aten::mm``'s ``aten::resolve_conj``; ours are our own public calls).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import borch_webgpu as bw  # noqa: E402

from profiler_cases import PROGRAMS  # noqa: E402


def _diff(path: str, got, want, out: list) -> None:
    if isinstance(want, dict) and isinstance(got, dict):
        for k in want:
            _diff(f"{path}.{k}", got.get(k, "<missing>"), want[k], out)
    elif isinstance(want, list) and isinstance(got, list) and len(want) == len(got) and \
            any(isinstance(w, (dict, list)) for w in want):
        for i, (g, w) in enumerate(zip(got, want)):
            _diff(f"{path}[{i}]", g, w, out)
    elif got != want:
        out.append(f"{path}: got {got!r}, PyTorch: {want!r}")


# what is PyTorch's ATen internals, not the program: left out of the comparison
SKIP = {"legacy.averages"}


def dispatch_check(device: str) -> list[str]:
    """The WebGPU work of each op: every op below dispatches on webgpu (none on cpu), and the events' own
    dispatches add up to the device total of the profile."""
    F = bw.nn.functional
    a = bw.ones(16, 16, device=device)
    x = bw.ones(1, 1, 8, 8, device=device)
    w = bw.ones(2, 1, 3, 3, device=device)
    acts = [bw.profiler.ProfilerActivity.CPU, bw.profiler.ProfilerActivity.CUDA]
    with bw.profiler.profile(activities=acts, record_shapes=True) as prof:
        bw.mm(a, a)
        bw.add(a, a)
        F.relu(a)
        F.conv2d(x, w)
        (a * 2).sum().item()
    top = [e for e in prof.events() if e.cpu_parent is None]
    totals = prof.device_totals or {}
    print("dispatches: " + " ".join(f"{e.name}={e.device_dispatches}" for e in top) + f"; device totals {totals}")
    bad = []
    for name in ("aten::mm", "aten::add", "aten::relu", "aten::conv2d", "aten::mul", "aten::sum"):
        n = next((e.device_dispatches for e in top if e.name == name), None)
        if n is None or (n < 1 if device == "webgpu" else n != 0):
            bad.append(f"dispatches: {name} recorded {n} dispatches on {device}")
    own = sum(e.self_device_dispatches for e in prof.events())
    if own != sum(e.device_dispatches for e in top) or (device == "webgpu" and own != totals.get("dispatches")):
        bad.append(f"dispatches: events' own {own} != device total {totals.get('dispatches')}")
    if device == "webgpu" and totals.get("device") != "webgpu":
        bad.append(f"dispatches: device totals {totals}")
    return bad


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="cpu")
    ap.add_argument("programs", nargs="*", help="names from profiler_cases.PROGRAMS (default: all)")
    args = ap.parse_args()
    unknown = set(args.programs) - set(PROGRAMS)
    if unknown:
        ap.error(f"unknown programs {sorted(unknown)}; known: {sorted(PROGRAMS)}")
    want = json.loads((HERE / "profiler.json").read_text())
    passed = failed = 0
    timings: list[str] = []
    t0 = time.perf_counter()
    for name, fn in PROGRAMS.items():
        if args.programs and name not in args.programs:
            continue
        t = time.perf_counter()
        got = fn(bw, args.device)
        timings.append(f"{name} {time.perf_counter() - t:.2f}s")
        for key, value in want[name].items():
            diffs: list[str] = []
            if f"{name}.{key}" in SKIP:
                continue
            _diff(f"{name}.{key}", got.get(key, "<missing>"), value, diffs)
            if diffs:
                failed += 1
                print("\n".join(diffs))
            else:
                passed += 1
    bad = dispatch_check(args.device)
    print("\n".join(bad)) if bad else None
    passed, failed = passed + (not bad), failed + bool(bad)
    print(f"profiler: {passed} passed, {failed} failed (device {args.device}; {time.perf_counter() - t0:.1f} s: "
          f"{', '.join(timings)})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
