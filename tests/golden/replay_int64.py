"""Run the cases of int64.json on borch_webgpu: ``python replay_int64.py [--device cpu|webgpu]
[--launch-blocking]``; in the browser through the runner with ``--mount tests/golden``. Prints one
line per mismatch and ``int64: N passed, N failed [device ...]``.

Each case runs as a one-line file ``<id>`` inside ``try:`` / ``with torch.scope():``, and its value is
read inside the scope. A case PyTorch refuses must raise its exception and message on both devices. On ``cpu`` (numpy's int64) every case must be PyTorch's value and dtype exactly.
On ``webgpu`` so must a result that fits int32 and one of a case marked ``host`` (values past int32 are
held on the host) or ``moves`` (a GPU kernel's result past int32, read first: it moves to the host), and
one marked ``used`` with launch blocking; another result past int32 (a GPU kernel's, used by a later
kernel before any read, written in place, converted or accumulated) must raise OverflowError whose message
starts with one of the case's ops and says it does not fit, never a value, with the op and
``<id>:1`` (at the scope's end, or by the line with launch blocking). After each case the device must
still work."""
from __future__ import annotations

import argparse
import json
import sys
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent

import borch_webgpu as bw  # noqa: E402


def load() -> dict:
    return json.loads((HERE / "int64.json").read_text())


def run(case: dict, device: str):
    """(value, exception, raised by the case's own line)."""
    code = compile(case["expr"], f"<{case['id']}>", "eval")
    try:
        with bw.scope():
            r = eval(code, {"torch": bw, "dev": device})  # noqa: S307 - our own list of expressions
            value = (r, "str") if isinstance(r, str) else (r.tolist(), str(r.dtype))
    except Exception as e:  # noqa: BLE001 - compared with what must happen
        own_line = any(fr.filename == f"<{case['id']}>" for fr in traceback.extract_tb(e.__traceback__))
        return None, e, own_line
    return value, None, False


def check(case: dict, device: str, launch_blocking: bool = False) -> str | None:
    """None when borch_webgpu did what it must, else what differs."""
    value, err, own_line = run(case, device)
    if "raises" in case:   # PyTorch refuses it: the same exception and message, on both devices
        if err is None or (type(err).__name__, str(err)) != (case["raises"], case["message"]):
            got = "nothing" if err is None else f"{type(err).__name__}: {err}"
            return f"raised {got}; PyTorch raises {case['raises']}: {case['message']}"
    elif case["fits"] or case["host"] or case.get("moves") or (case.get("used") and launch_blocking) or \
            device == "cpu":
        if err is not None:
            return f"raised {type(err).__name__}: {err}; PyTorch gives {case['value']}"
        if value != (case["value"], case["dtype"]):
            return f"gave {value}; PyTorch gives {case['value']} ({case['dtype']})"
    else:
        if err is None:
            return f"gave {value}, a wrong number: PyTorch gives {case['value']}, which int32 cannot hold"
        msg = str(err)
        if not isinstance(err, OverflowError) or not any(msg.startswith(op + ":") for op in case["ops"]) or \
                "does not fit in int32" not in msg:
            return f"raised {type(err).__name__}: {msg!r}; want OverflowError from {case['ops']}"
        if not any(f"({op.split('(')[0]} at <{case['id']}>:1" in msg for op in case["ops"]):
            return f"the message does not name the op and the line: {msg!r}"
        if own_line != launch_blocking:
            return f"raised {'by the line' if own_line else 'at the end of the scope'}, not where it must"
    try:
        if (bw.arange(5, device=device) + 1).sum().item() != 15:
            return "the device gives wrong values after the case"
    except Exception as e:  # noqa: BLE001
        return f"the device fails after the case: {type(e).__name__}: {e}"
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
            if err is None:
                passed += 1
            else:
                failed += 1
                print(f"{case['id']}: {err}")
    finally:
        if ns.launch_blocking:
            bw.webgpu.set_launch_blocking(False)
    print(f"int64: {passed} passed, {failed} failed [device {device}{', launch blocking' if ns.launch_blocking else ''}]")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
