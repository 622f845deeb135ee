"""The distances, the remaining losses and the layers of tests/golden/cases_nn_more.py and
cases_nn_more_layers.py and cases_nn_3d.py on WebGPU in Chromium: PyTorch's frozen outputs, gradients and errors replayed on the
device (replay.py with those ops), one test per file."""
from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


@pytest.mark.parametrize("cases", ["cases_nn_more", "cases_nn_more_layers", "cases_nn_3d"])
def test_nn_more_goldens_on_webgpu(replay_on_webgpu, cases):
    sys.path.insert(0, str(GOLDEN))
    try:
        ops = importlib.import_module(cases).OPS
    finally:
        sys.path.remove(str(GOLDEN))
    replay_on_webgpu("replay.py", "golden:", ops)


def test_nn_act_random_ops_on_webgpu(replay_on_webgpu):
    """rrelu in training, the alpha and 3-D dropouts: distributions, seeding and gradients (nn_act_random.py).
    cases_nn_act.py's goldens are replayed on WebGPU by test_boot.py's whole suite only (CI runs each case once)."""
    replay_on_webgpu("nn_act_random.py", "nn_act random:")
