"""The distances, the remaining losses and the layers of tests/golden/cases_nn_more.py on WebGPU in Chromium:
PyTorch's frozen outputs, gradients and errors replayed on the device (replay.py with those ops)."""
from __future__ import annotations

import sys
from pathlib import Path

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def test_nn_more_goldens_on_webgpu(replay_on_webgpu):
    sys.path.insert(0, str(GOLDEN))
    try:
        from cases_nn_more import OPS
    finally:
        sys.path.remove(str(GOLDEN))
    replay_on_webgpu("replay.py", "golden:", OPS)
