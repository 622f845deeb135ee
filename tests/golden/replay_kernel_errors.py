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
again)."""
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


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default=None)
    ap.add_argument("--launch-blocking", action="store_true")
    ns = ap.parse_args(argv)
    device = ns.device or bw.get_default_device().type
    if ns.launch_blocking:
        bw.webgpu.set_launch_blocking(True)
    passed = failed = 0
    try:
        for case in load()["cases"]:
            err = check(case, device, ns.launch_blocking)
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
