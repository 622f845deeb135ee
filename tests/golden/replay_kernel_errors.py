"""Run the bad indices of kernel_errors.json on borch_webgpu and compare with PyTorch's exceptions:
``python replay_kernel_errors.py [--device cpu|webgpu] [--launch-blocking]``; in the browser through
the runner with ``--mount tests/golden``. Prints one line per mismatch and
``kernel errors: N passed, N failed [device ...]``.

Each case runs as a one-line file ``<id>`` inside ``try:`` / ``with torch.scope():``. It must raise
there, PyTorch's exception type, with PyTorch's message:

- on the cpu device exactly PyTorch's message, raised by the line itself;
- on WebGPU PyTorch's message followed by ``(<op> at <id>:1; found by a WebGPU kernel, raised at
  ...)``: at the end of the scope, or with ``--launch-blocking`` by the line itself.

After each case the device must still work (a read gives the right value, the error is not raised
again).

Then the ``at_once`` cases (a Python 0 as an integer divisor, bool operands): PyTorch's exception and
message, raised by the line itself on both devices; and the ``values``: divisions that must give
PyTorch's values (integer divisions by nonzero tensors, without a host read on WebGPU: the sync
debug mode is "error" while they run; float division by zero: inf and nan)."""
from __future__ import annotations

import argparse
import json
import sys
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent

import borch_webgpu as bw  # noqa: E402


def load() -> dict:
    return json.loads((HERE / "kernel_errors.json").read_text())


def run(case: dict, device: str):
    """(exception, raised by the case's own line) for the case run inside try / scope()."""
    code = compile(case["snippet"], f"<{case['id']}>", "exec")
    try:
        with bw.scope():
            exec(code, {"torch": bw, "dev": device})  # noqa: S102 - our own list of snippets
    except Exception as e:  # noqa: BLE001 - comparing with PyTorch's exception
        own_line = any(fr.filename == f"<{case['id']}>" for fr in traceback.extract_tb(e.__traceback__))
        return e, own_line
    return None, False


def expected_message(case: dict, device: str, launch_blocking: bool) -> str:
    if device == "cpu":
        return case["message"]
    when = "the op itself (launch blocking is on)" if launch_blocking else "the end of torch.scope()"
    return f"{case['message']} ({case['op']} at <{case['id']}>:1; found by a WebGPU kernel, raised at {when})"


def check(case: dict, device: str, launch_blocking: bool = False) -> str | None:
    """None when borch_webgpu raised as it must, else what differs."""
    err, own_line = run(case, device)
    if err is None:
        return f"raised nothing; PyTorch raises {case['type']}: {case['message']!r}"
    want = expected_message(case, device, launch_blocking)
    if type(err).__name__ != case["type"] or str(err) != want:
        return f"raised {type(err).__name__}: {str(err)!r}\n  want   {case['type']}: {want!r}"
    if own_line != (device == "cpu" or launch_blocking):
        return f"raised {'by the line' if own_line else 'at the end of the scope'}, not where it must"
    try:
        if bw.ones(3, device=device).sum().item() != 3.0:
            return "the device gives wrong values after the error"
    except Exception as e:  # noqa: BLE001
        return f"the device fails after the error: {type(e).__name__}: {e}"
    return None


def check_at_once(case: dict, device: str) -> str | None:
    err, own_line = run(case, device)
    if err is None or type(err).__name__ != case["type"] or str(err) != case["message"] or not own_line:
        got = "nothing" if err is None else f"{type(err).__name__}: {str(err)!r}"
        return f"raised {got}{'' if own_line else ' (not by its line)'}; want {case['type']}: {case['message']!r}"
    return None


def _same(a, b) -> bool:
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b or (a != a and b != b)  # NaN where PyTorch has NaN


def check_value(case: dict, device: str) -> str | None:
    if device != "cpu":
        bw.webgpu.set_sync_debug_mode("error")   # a host read inside the op raises
    try:
        r = eval(case["snippet"], {"torch": bw, "dev": device})  # noqa: S307 - our own list of snippets
    except Exception as e:  # noqa: BLE001
        return f"raised {type(e).__name__}: {e}"
    finally:
        if device != "cpu":
            bw.webgpu.set_sync_debug_mode("default")
    got = (str(r.dtype).removeprefix("torch."), list(r.shape), r.tolist())
    want = (case["dtype"], case["shape"], case["value"])
    return None if got[:2] == want[:2] and _same(got[2], want[2]) else f"gave {got}, PyTorch {want}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default=None)
    ap.add_argument("--launch-blocking", action="store_true")
    ns = ap.parse_args(argv)
    device = ns.device or bw.get_default_device().type
    if ns.launch_blocking:
        bw.webgpu.set_launch_blocking(True)
    passed = failed = 0
    doc = load()
    checks = ([(c, lambda c: check(c, device, ns.launch_blocking)) for c in doc["cases"]]
              + [(c, lambda c: check_at_once(c, device)) for c in doc["at_once"]]
              + [(c, lambda c: check_value(c, device)) for c in doc["values"]])
    try:
        for case, fn in checks:
            err = fn(case)
            if err:
                failed += 1
                print(f"FAIL {case['id']}: {err}")
            else:
                passed += 1
    finally:
        if ns.launch_blocking:
            bw.webgpu.set_launch_blocking(False)
    mode = ", launch blocking" if ns.launch_blocking else ""
    print(f"kernel errors: {passed} passed, {failed} failed [device {device}{mode}]")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
