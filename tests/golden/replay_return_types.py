"""Replay return_types.json (PyTorch's answers, tests/golden/generate_return_types.py) on borch_webgpu:
``python replay_return_types.py [--device cpu|webgpu]``, as replay_rnn.py does: the reprs (with the cpu as the
default device), the constructor and field errors, and attributes (on the device). Prints one line per mismatch
and ``return_types: N passed, N failed``."""
from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from replay_rnn import replay  # noqa: E402


def load() -> dict:
    return json.loads((HERE / "return_types.json").read_text())


def main(argv=None) -> int:
    return replay("return_types", load(), [], argv)


if __name__ == "__main__":
    sys.exit(main())
