"""Replay nn_names.json (PyTorch's answers, tests/golden/generate_nn_names.py) on borch_webgpu:
``python replay_nn_names.py [--device cpu|webgpu]``, as replay_rnn.py does. Prints one line per mismatch and
``nn_names: N passed, N failed``."""
from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from replay_rnn import replay  # noqa: E402


def load() -> dict:
    return json.loads((HERE / "nn_names.json").read_text())


def main(argv=None) -> int:
    return replay("nn_names", load(), [], argv)


if __name__ == "__main__":
    sys.exit(main())
