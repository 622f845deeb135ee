"""Run the bad-input snippets on borch_webgpu and compare exception types with PyTorch's.

``python replay_errors.py [--device cpu|webgpu]``; inside the browser through the runner with
``--mount tests/golden``. Prints one line per mismatch and ``errors: N passed, N failed``."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

import borch_webgpu as bw  # noqa: E402


def run(snippet: str, device: str):
    """(exception type name, message) that the snippet raises, or (None, '') when it does not."""
    env = {"torch": bw, "dev": device}
    try:
        exec(snippet, env)  # noqa: S102 - our own list of snippets
        # a GPU kernel may find a bad index only when a value is read: read what the snippet made
        for v in list(env.values()):
            if isinstance(v, bw.Tensor):
                v.detach().tolist()
    except Exception as e:  # noqa: BLE001 - comparing with PyTorch's type
        return type(e).__name__, str(e)
    return None, ""


def check(name, want, got_type, got_msg) -> str | None:
    if got_type != want["type"]:
        return f"raised {got_type}: {got_msg[:200]!r}; PyTorch raises {want['type']}: {want['message'][:200]!r}"
    if not got_msg.strip():
        return "empty message"
    if "JsException" in got_msg or "\n    at " in got_msg:
        return f"a JavaScript error leaked: {got_msg[:300]!r}"
    return None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default=None)
    ns = ap.parse_args(argv)
    device = ns.device or bw.get_default_device().type
    doc = json.loads((HERE / "errors.json").read_text())
    passed = failed = 0
    for name, snippet, want in doc["errors"]:
        got_type, got_msg = run(snippet, device)
        err = check(name, want, got_type, got_msg)
        if err:
            failed += 1
            print(f"FAIL {name}: {err}")
        else:
            passed += 1
    print(f"errors: {passed} passed, {failed} failed [device {device}]")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
